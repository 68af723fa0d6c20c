import { sql } from 'drizzle-orm';
import { index, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Contact messages, stored before anything else is done with them. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    topic: text('topic'),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When an owner replied from the console. */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
);

/** Newsletter subscribers: one row per address (without regard to case); unsubscribing keeps the row. */
export const subscribers = pgTable(
  'subscribers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** SHA-256 of the unsubscribe token the mails carry. */
    tokenHash: text('token_hash').notNull(),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('subscribers_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('subscribers_token_hash_key').on(t.tokenHash),
    index('subscribers_active_idx').on(t.subscribedAt, t.id).where(sql`${t.unsubscribedAt} IS NULL`),
  ],
);
