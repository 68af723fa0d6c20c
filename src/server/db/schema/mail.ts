import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The durable mail outbox: a mail is a row written in the same transaction as the change that
 * causes it, and delivered (and retried with backoff) by whichever instance claims it first.
 * Once sent, a row keeps its recipient, subject and status; text, html, headers and link are
 * cleared, as they carry tokens.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** The link the mail carries, printed in the log when mail goes to files (never for SMTP). */
    link: text('link'),
    /** What the mail is about (an order's public id), so the owner console can list an order's mails. */
    ref: text('ref'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} IS NULL`),
    index('mail_outbox_ref_idx').on(t.ref).where(sql`${t.ref} IS NOT NULL`),
  ],
);
