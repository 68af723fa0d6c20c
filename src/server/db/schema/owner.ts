import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Owners added from the command line (`npm run owner -- add EMAIL`), besides OWNER_EMAILS: an
 * account with such an e-mail (without regard to case) is an owner once it exists and is verified.
 */
export const owners = pgTable('owners', {
  /** Lower case. */
  email: text('email').primaryKey(),
  addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The OWNER_EMAILS (lower case) that the server last started with, written at every start:
 * `npm run owner -- list`, which may run with another environment than the server's, lists the
 * owners the server itself reads.
 */
export const serverOwnerEmails = pgTable('server_owner_emails', {
  email: text('email').primaryKey(),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every owner action, written in the transaction of the change; never updated or deleted. */
export const ownerActivity = pgTable(
  'owner_activity',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: integer('actor_id').notNull(),
    /** The owner's e-mail at the time, kept even if the account changes. */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    /** The record acted on: `order ord_...`, `customer 12`, `kit 3`, `message 7`. */
    target: text('target').notNull(),
    /** What was done, in words (kits, amounts, reason, note). */
    detail: text('detail').notNull(),
  },
  (t) => [index('owner_activity_at_idx').on(t.at, t.id), index('owner_activity_target_idx').on(t.target)],
);
