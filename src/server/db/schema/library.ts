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
    // A kit's owners, told about its new versions.
    index('entitlements_active_kit_idx').on(t.kitId).where(sql`${t.revokedAt} IS NULL`),
  ],
);

/** Every imported version of a kit's archive; the newest is what owners download. Older ones are kept. */
export const kitVersions = pgTable(
  'kit_versions',
  {
    id: serial('id').primaryKey(),
    kitId: integer('kit_id')
      .notNull()
      .references(() => kits.id),
    version: text('version').notNull(),
    releasedOn: text('released_on').notNull(),
    changelog: text('changelog').notNull(),
    storageKey: text('storage_key').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('kit_versions_kit_version_key').on(t.kitId, t.version),
    index('kit_versions_kit_created_idx').on(t.kitId, t.createdAt),
  ],
);

/** Each download: who, which kit and version, when, from where. */
export const downloads = pgTable(
  'downloads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kitId: integer('kit_id')
      .notNull()
      .references(() => kits.id),
    versionId: integer('version_id')
      .notNull()
      .references(() => kitVersions.id),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('downloads_user_kit_idx').on(t.userId, t.kitId, t.createdAt), index('downloads_kit_idx').on(t.kitId)],
);

/**
 * Kits an owner gave a customer. A grant and a paid line each keep a kit owned: revoking a grant
 * leaves a kit the customer paid for, and refunding a line leaves a kit still granted.
 */
export const kitGrants = pgTable(
  'kit_grants',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kitId: integer('kit_id')
      .notNull()
      .references(() => kits.id),
    note: text('note').notNull(),
    grantedBy: integer('granted_by'),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeNote: text('revoke_note'),
  },
  (t) => [uniqueIndex('kit_grants_active_key').on(t.userId, t.kitId).where(sql`${t.revokedAt} IS NULL`)],
);
