import { type SQL, sql } from 'drizzle-orm';
import type { Database, Reader } from '../../db/open.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { serialRounds } from '../../lib/serial-rounds.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

type Log = { info: (msg: string) => void; warn: (obj: object, msg: string) => void };

/** Queues a mail; pass the transaction of the change that causes it, so both commit or neither. */
export async function enqueueMail(db: Reader, mail: QueuedMail): Promise<void> {
  await enqueueMails(db, [mail]);
}

/** Several mails in one statement. */
export async function enqueueMails(db: Reader, mails: QueuedMail[]): Promise<void> {
  await db.execute(enqueueMailSql(mails));
}

/** `ref`: what the mail is about (an order's public id), so the owner console lists it there. */
type QueuedMail = OutgoingMail & { link?: string; ref?: string };

/**
 * The statement behind enqueueMail, for several mails at once, to run inside a larger statement.
 * The mails travel as one JSON parameter: a burst of payments queues dozens of bodies of a few KB,
 * which as one parameter each would cost the server more to bind than to send.
 */
export function enqueueMailSql(mails: QueuedMail[]): SQL {
  const rows = mails.map((mail) => ({
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers ?? {},
    link: mail.link ?? null,
    ref: mail.ref ?? null,
  }));
  return sql`INSERT INTO ${mailOutbox} ("to", subject, text, html, headers, link, ref)
    SELECT v."to", v.subject, v.text, v.html, v.headers, v.link, v.ref
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS v("to" text, subject text, text text, html text, headers jsonb, link text, ref text)`;
}

/** The mails queued about a record (see `ref`), oldest first: subject and delivery status. */
export async function mailsAbout(db: Reader, ref: string) {
  const { rows } = await db.execute<{ at: string; subject: string; status: 'sent' | 'queued' | 'retrying' }>(sql`
    SELECT created_at AS at, subject,
           CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN attempts > 0 THEN 'retrying' ELSE 'queued' END AS status
      FROM mail_outbox WHERE ref = ${ref} ORDER BY created_at, id`);
  return rows;
}

/** Mails not sent yet, and how long the oldest of them has waited (for the metrics). */
export async function outboxBacklog(db: Reader): Promise<{ depth: number; oldestAgeSeconds: number }> {
  const { rows } = await db.execute<{ depth: number; age: number | null }>(sql`
    SELECT count(*)::int AS depth, extract(epoch FROM now() - min(created_at))::float8 AS age
      FROM mail_outbox WHERE sent_at IS NULL`);
  return { depth: rows[0]?.depth ?? 0, oldestAgeSeconds: Math.max(0, rows[0]?.age ?? 0) };
}

/** 5 s, 10 s, 20 s ... capped at 10 minutes: an SMTP outage of minutes loses nothing. */
export const retryDelaySeconds = (attempts: number) => Math.min(5 * 2 ** Math.max(0, attempts - 1), 600);

type OutboxRow = {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  link: string | null;
  attempts: number;
};

/** How long a claimed mail is its sender's: if the process dies mid-send, another round retries it after this. */
export const CLAIM_SECONDS = 600;

/**
 * Delivers due mails, a batch at a time. The batch is claimed first, in one committed statement
 * (FOR UPDATE SKIP LOCKED, attempts counted, due again only after CLAIM_SECONDS), so no
 * transaction stays open across SMTP, two instances never take the same mail, and nothing that
 * fails after a send can roll the send back into an unsent row. Each mail is marked sent as soon
 * as the transport took it; a failing transport puts it and the rest of the batch back, later.
 */
export async function deliverDueMail(db: Database, mailer: Mailer, log: Log, batch = 20): Promise<number> {
  const { rows } = await db.execute<OutboxRow>(
    sql`UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${CLAIM_SECONDS})
        WHERE id IN (SELECT id FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at <= now()
                     ORDER BY next_attempt_at, id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
        RETURNING id, "to", subject, text, html, headers, link, attempts`,
  );
  rows.sort((a, b) => a.id - b.id);
  let sent = 0;
  for (const [index, row] of rows.entries()) {
    try {
      await mailer.send({ to: row.to, subject: row.subject, text: row.text, html: row.html, headers: row.headers });
    } catch (error) {
      // The transport is failing: this row and the rest of the batch wait for their next attempt.
      for (const failed of rows.slice(index)) {
        const delay = retryDelaySeconds(failed.attempts);
        await db.execute(
          sql`UPDATE mail_outbox SET last_error = ${String((error as Error).message ?? error).slice(0, 500)},
              next_attempt_at = now() + make_interval(secs => ${delay}) WHERE id = ${failed.id}`,
        );
      }
      log.warn({ err: error }, `mail to ${row.to} not delivered (attempt ${row.attempts}); retrying later`);
      break;
    }
    // A sent row keeps recipient, subject and status only: bodies, headers (List-Unsubscribe)
    // and link carry single-use and unsubscribe tokens that must not outlive the delivery.
    await db.execute(
      sql`UPDATE mail_outbox SET sent_at = now(), last_error = NULL, text = '', html = '', headers = '{}', link = NULL
          WHERE id = ${row.id}`,
    );
    sent += 1;
    if (row.link && mailer.local) log.info(`mail "${row.subject}" to ${row.to}: ${row.link}`);
  }
  return sent;
}

const QUIET_MS = 200;
const MAX_WAIT_MS = 1000;

/** Runs delivery every `intervalMs` and soon after `nudge()` is called (right after a mail is queued). */
export function startOutboxWorker(db: Database, mailer: Mailer, log: Log, intervalMs = 2000) {
  // A full batch means there may be more waiting.
  const rounds = serialRounds(
    async () => (await deliverDueMail(db, mailer, log)) >= 20,
    (error) => log.warn({ err: error }, 'mail outbox round failed'),
  );
  const run = rounds.run;
  const timer = setInterval(run, intervalMs);
  timer.unref();
  let nudged: NodeJS.Timeout | undefined;
  let firstNudge = 0;
  return {
    // Mail waits for a quiet moment: a round starts 200 ms after the last nudge, so a wave of
    // payments is answered first and mailed in one round, but never later than 1 s after the first.
    nudge: () => {
      const now = Date.now();
      if (!nudged) firstNudge = now;
      clearTimeout(nudged);
      nudged = setTimeout(
        () => {
          nudged = undefined;
          void run();
        },
        Math.max(0, Math.min(QUIET_MS, firstNudge + MAX_WAIT_MS - now)),
      );
    },
    async stop() {
      clearInterval(timer);
      clearTimeout(nudged);
      await rounds.stop();
      mailer.close();
    },
  };
}
export type OutboxWorker = ReturnType<typeof startOutboxWorker>;

/**
 * Deletes every mail to this address, sent or waiting (an erased account's); a mail queued after
 * it in the same transaction (the goodbye) is kept.
 */
export async function forgetRecipient(db: Reader, email: string): Promise<void> {
  await db.execute(sql`DELETE FROM mail_outbox WHERE lower("to") = lower(${email})`);
}
