import { sql } from 'drizzle-orm';
import type { Database } from '../../db/open.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

type Executor = Pick<Database, 'insert'>;
type Log = { info: (msg: string) => void; warn: (obj: object, msg: string) => void };

/** Queues a mail; pass the transaction of the change that causes it, so both commit or neither. */
export async function enqueueMail(db: Executor, mail: OutgoingMail & { link?: string }): Promise<void> {
  await db.insert(mailOutbox).values({
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers ?? {},
    link: mail.link ?? null,
  });
}

/** 5 s, 10 s, 20 s ... capped at 10 minutes: an SMTP outage of minutes loses nothing. */
export const retryDelaySeconds = (attempts: number) => Math.min(5 * 2 ** Math.max(0, attempts - 1), 600);

/**
 * Delivers due mails. Rows are claimed with FOR UPDATE SKIP LOCKED inside a transaction that
 * also records the outcome, so two instances never send the same mail and a crash mid-send
 * leaves the row to be retried.
 */
export async function deliverDueMail(db: Database, mailer: Mailer, log: Log, batch = 10): Promise<number> {
  let delivered = 0;
  for (let i = 0; i < batch; i++) {
    const done = await db.transaction(async (tx) => {
      const { rows } = await tx.execute<{
        id: number;
        to: string;
        subject: string;
        text: string;
        html: string;
        headers: Record<string, string>;
        link: string | null;
        attempts: number;
      }>(
        sql`SELECT id, "to", subject, text, html, headers, link, attempts FROM mail_outbox
            WHERE sent_at IS NULL AND next_attempt_at <= now()
            ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const row = rows[0];
      if (!row) return null;
      try {
        await mailer.send({ to: row.to, subject: row.subject, text: row.text, html: row.html, headers: row.headers });
        await tx.execute(
          sql`UPDATE mail_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ${row.id}`,
        );
        if (row.link) log.info(`mail "${row.subject}" to ${row.to}: ${row.link}`);
        return true;
      } catch (error) {
        const delay = retryDelaySeconds(row.attempts + 1);
        await tx.execute(
          sql`UPDATE mail_outbox SET attempts = attempts + 1, last_error = ${String((error as Error).message ?? error).slice(0, 500)},
              next_attempt_at = now() + make_interval(secs => ${delay}) WHERE id = ${row.id}`,
        );
        log.warn(
          { err: error },
          `mail to ${row.to} not delivered (attempt ${row.attempts + 1}); retrying in ${delay} s`,
        );
        return false;
      }
    });
    if (done === null) break;
    if (done) delivered++;
    else break; // the transport is failing: wait for the next round
  }
  return delivered;
}

/** Runs delivery every `intervalMs` and whenever `nudge()` is called (right after a mail is queued). */
export function startOutboxWorker(db: Database, mailer: Mailer, log: Log, intervalMs = 2000) {
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await deliverDueMail(db, mailer, log);
      } while (again && !stopped);
    } catch (error) {
      log.warn({ err: error }, 'mail outbox round failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    nudge: () => void run(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await new Promise((r) => setTimeout(r, 20));
      mailer.close();
    },
  };
}
export type OutboxWorker = ReturnType<typeof startOutboxWorker>;
