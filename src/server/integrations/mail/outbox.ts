import { type SQL, sql } from 'drizzle-orm';
import type { Database, Reader } from '../../db/open.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { exponentialBackoff, type JobQueue, runJobRound, startJobRunner } from '../../lib/job-runner.ts';
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

/**
 * One mail to every address of a relation `(email)` (a kit's buyers), each address once, as one
 * INSERT ... SELECT: thousands of recipients cost one statement, not one row built in Node each.
 */
export function enqueueMailToEachSql(mail: Omit<QueuedMail, 'to'>, addresses: SQL): SQL {
  return sql`INSERT INTO ${mailOutbox} ("to", subject, text, html, headers, link, ref)
    SELECT DISTINCT ON (lower(r.email)) r.email, ${mail.subject}, ${mail.text}, ${mail.html},
           ${JSON.stringify(mail.headers ?? {})}::jsonb, ${mail.link ?? null}::text, ${mail.ref ?? null}::text
      FROM (${addresses}) r
     ORDER BY lower(r.email)`;
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
export const retryDelaySeconds = exponentialBackoff(5, 600);

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

const BATCH = 20;

/**
 * The outbox as a job queue. A mail is never marked failed: it is retried, however long the SMTP
 * server stays away. Each mail is marked sent as soon as the transport took it, so nothing that
 * fails after a send can roll the send back into an unsent row.
 */
function outboxQueue(db: Database, mailer: Mailer, log: Log): JobQueue<OutboxRow> {
  return {
    name: 'mail',
    async claim(limit) {
      const { rows } = await db.execute<OutboxRow>(
        sql`UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${CLAIM_SECONDS})
            WHERE id IN (SELECT id FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at <= now()
                         ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING id, "to", subject, text, html, headers, link, attempts`,
      );
      return rows.sort((a, b) => a.id - b.id);
    },
    async perform(row) {
      await mailer.send({ to: row.to, subject: row.subject, text: row.text, html: row.html, headers: row.headers });
      // A sent row keeps recipient, subject and status only: bodies, headers (List-Unsubscribe)
      // and link carry single-use and unsubscribe tokens that must not outlive the delivery.
      await db.execute(
        sql`UPDATE mail_outbox SET sent_at = now(), last_error = NULL, text = '', html = '', headers = '{}', link = NULL
            WHERE id = ${row.id}`,
      );
      if (row.link && mailer.local) log.info(`mail "${row.subject}" to ${row.to}: ${row.link}`);
    },
    async retry(row, delaySeconds, error) {
      await db.execute(
        sql`UPDATE mail_outbox SET last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${delaySeconds})
            WHERE id = ${row.id}`,
      );
    },
    describe: (row) => `to ${row.to}`,
  };
}

/**
 * One at a time in the order queued, and a failing transport puts the mail and the rest of the
 * batch back: the SMTP server is down for all of them.
 */
const outboxRunning = { batch: BATCH, concurrency: 1, backoff: retryDelaySeconds, stopBatchOnFailure: true };

/**
 * Delivers due mails, one batch claimed in a committed statement (FOR UPDATE SKIP LOCKED,
 * attempts counted, due again only after CLAIM_SECONDS), so no transaction stays open across
 * SMTP and two instances never take the same mail. Answers how many were sent.
 */
export async function deliverDueMail(db: Database, mailer: Mailer, log: Log, batch = BATCH): Promise<number> {
  const round = await runJobRound(outboxQueue(db, mailer, log), { ...outboxRunning, batch }, log);
  return round.completed;
}

/**
 * Runs delivery every `intervalMs` and soon after `nudge()` is called (right after a mail is
 * queued). Mail waits for a quiet moment: a round starts 200 ms after the last nudge, so a wave of
 * payments is answered first and mailed in one round, but never later than 1 s after the first.
 */
export function startOutboxWorker(db: Database, mailer: Mailer, log: Log, intervalMs = 2000) {
  const runner = startJobRunner(
    outboxQueue(db, mailer, log),
    { ...outboxRunning, intervalMs, gather: { quietMs: 200, maxWaitMs: 1000 } },
    log,
  );
  return {
    nudge: runner.nudge,
    counts: runner.counts,
    async stop() {
      await runner.stop();
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
