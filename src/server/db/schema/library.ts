import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { userIdColumn, users } from './accounts.ts';
import { kitIdColumn, kits, kitVersions } from './catalog.ts';
import { createdAt, timestamptz } from './columns.ts';

/** What a user owns: one row per user and kit; a refund sets revoked_at. */
export const entitlements = pgTable(
  'entitlements',
  {
    id: serial('id').primaryKey(),
    userId: userIdColumn({ onDelete: 'cascade' }),
    kitId: kitIdColumn(),
    /** Where it came from: an order id, or 'grant' for a manual grant. */
    source: text('source').notNull(),
    grantedAt: timestamptz('granted_at').notNull().defaultNow(),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [
    uniqueIndex('entitlements_user_kit_key').on(t.userId, t.kitId),
    index('entitlements_active_user_idx').on(t.userId).where(sql`${t.revokedAt} IS NULL`),
    // A kit's owners, told about its new versions.
    index('entitlements_active_kit_idx').on(t.kitId).where(sql`${t.revokedAt} IS NULL`),
  ],
);

/** Each download: who, which kit and version, when, from where. */
export const downloads = pgTable(
  'downloads',
  {
    id: serial('id').primaryKey(),
    userId: userIdColumn({ onDelete: 'cascade' }),
    kitId: kitIdColumn(),
    versionId: integer('version_id')
      .notNull()
      .references(() => kitVersions.id),
    ip: text('ip'),
    createdAt: createdAt(),
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
    userId: userIdColumn({ onDelete: 'cascade' }),
    kitId: kitIdColumn(),
    note: text('note').notNull(),
    grantedBy: integer('granted_by'),
    grantedAt: timestamptz('granted_at').notNull().defaultNow(),
    revokedAt: timestamptz('revoked_at'),
    revokeNote: text('revoke_note'),
  },
  (t) => [uniqueIndex('kit_grants_active_key').on(t.userId, t.kitId).where(sql`${t.revokedAt} IS NULL`)],
);

/**
 * Per kit: its downloads and its active owners, kept by statement triggers on downloads and
 * entitlements (migration 0008), so the owner console reads two numbers instead of counting rows.
 * Owners changes arrive in kit_owner_changes first (migration 0014) and are folded in here.
 */
export const kitCounts = pgTable('kit_counts', {
  kitId: integer('kit_id')
    .primaryKey()
    .references(() => kits.id, { onDelete: 'cascade' }),
  downloads: integer('downloads').notNull().default(0),
  owners: integer('owners').notNull().default(0),
});

/**
 * Changes of kits' owner counts not yet folded into kit_counts (migration 0014): the entitlements
 * trigger appends a row per kit and statement instead of updating the kit's one counter row, so
 * payments of one kit running at once never wait for each other's commit. The count is kit_counts'
 * owners plus these; housekeeping folds them in.
 */
export const kitOwnerChanges = pgTable(
  'kit_owner_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kitId: integer('kit_id')
      .notNull()
      .references(() => kits.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
  },
  (t) => [index('kit_owner_changes_kit_idx').on(t.kitId)],
);

/**
 * Upgrade patches, made once per (from, to) pair of a kit's versions and kept in storage: a
 * unified diff in git's format that `git apply` takes in an unmodified copy of the older version.
 */
export const upgradePatches = pgTable(
  'upgrade_patches',
  {
    id: serial('id').primaryKey(),
    kitId: kitIdColumn(),
    fromVersionId: integer('from_version_id')
      .notNull()
      .references(() => kitVersions.id),
    toVersionId: integer('to_version_id')
      .notNull()
      .references(() => kitVersions.id),
    storageKey: text('storage_key').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('upgrade_patches_pair_key').on(t.fromVersionId, t.toVersionId)],
);

/** Buyers who asked for no mail about new versions of their kits (one switch for all their kits). */
export const updateMailOptOuts = pgTable('update_mail_opt_outs', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});
