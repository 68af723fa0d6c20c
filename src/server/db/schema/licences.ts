import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { userIdColumn } from './accounts.ts';
import { kitIdColumn } from './catalog.ts';
import { createdAt, timestamptz } from './columns.ts';
import { entitlements } from './library.ts';

/**
 * One licence key per entitlement (a purchase, a grant, a seat). The key itself is never stored:
 * its SHA-256 finds it, and a sealed copy (secret box) shows it to its holder. The user and kit are
 * the entitlement's, which never change for a row, copied so the holder's page finds the key by them.
 * Whether the key is revoked is the entitlement's `revoked_at`; `disabled_at` is the owner's switch.
 */
export const licenceKeys = pgTable(
  'licence_keys',
  {
    id: serial('id').primaryKey(),
    entitlementId: integer('entitlement_id')
      .notNull()
      .references(() => entitlements.id, { onDelete: 'cascade' }),
    userId: userIdColumn({ onDelete: 'cascade' }),
    kitId: kitIdColumn(),
    /** SHA-256 of the canonical key, hex. */
    keyHash: text('key_hash').notNull(),
    /** The key sealed with the secret box (purpose `licence-key`). */
    keySealed: text('key_sealed').notNull(),
    /** The key's last group, for the owner console's masked form. */
    keyTail: text('key_tail').notNull(),
    /** Instances the key may be activated on: its tier's, raised by a later tier, lowered when a refund ends that tier. */
    activationLimit: integer('activation_limit').notNull().default(3),
    disabledAt: timestamptz('disabled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('licence_keys_entitlement_key').on(t.entitlementId),
    uniqueIndex('licence_keys_hash_key').on(t.keyHash),
    index('licence_keys_user_kit_idx').on(t.userId, t.kitId),
  ],
);

/** The machines (instances) a key is activated on; `public_id` is the API's `instance.id`. */
export const licenceActivations = pgTable(
  'licence_activations',
  {
    id: serial('id').primaryKey(),
    publicId: text('public_id').notNull(),
    licenceKeyId: integer('licence_key_id')
      .notNull()
      .references(() => licenceKeys.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('licence_activations_public_id_key').on(t.publicId),
    index('licence_activations_key_idx').on(t.licenceKeyId, t.createdAt),
  ],
);
