import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.ts';

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
    createdAt: createdAt(),
    /** When an owner replied from the console. */
    answeredAt: timestamptz('answered_at'),
  },
  (t) => [
    index('contact_messages_created_at_idx').on(t.createdAt),
    // The console's search (ILIKE '%text%') over each column it reads, so PostgreSQL can OR the three.
    index('contact_messages_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('contact_messages_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('contact_messages_message_trgm_idx').using('gin', t.message.op('gin_trgm_ops')),
  ],
);

/** Newsletter subscribers: one row per address (without regard to case); unsubscribing keeps the row. */
export const subscribers = pgTable(
  'subscribers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** SHA-256 of the unsubscribe token the mails carry. */
    tokenHash: text('token_hash').notNull(),
    subscribedAt: timestamptz('subscribed_at').notNull().defaultNow(),
    unsubscribedAt: timestamptz('unsubscribed_at'),
  },
  (t) => [
    uniqueIndex('subscribers_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('subscribers_token_hash_key').on(t.tokenHash),
    index('subscribers_active_idx').on(t.subscribedAt, t.id).where(sql`${t.unsubscribedAt} IS NULL`),
    index('subscribers_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
  ],
);

/**
 * One row whose version a statement trigger on subscribers raises with every change (migration
 * 0008): read in the same snapshot as the list, it tells when a kept subscribers.csv is still current.
 */
export const subscriberListVersion = pgTable('subscriber_list_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
