import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { kits } from './catalog.ts';

/** What a user owns: one row per user and kit; a refund sets revoked_at. */
export const entitlements = pgTable(
  'entitlements',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kitId: integer('kit_id')
      .notNull()
      .references(() => kits.id),
    /** Where it came from: an order id, or 'grant' for a manual grant. */
    source: text('source').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('entitlements_user_kit_key').on(t.userId, t.kitId),
    index('entitlements_active_user_idx').on(t.userId).where(sql`${t.revokedAt} IS NULL`),
  ],
);
