import { randomUUID } from 'node:crypto';
import { fillPlaceholders, type SQLWrapper, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { HolderLicence } from '../../../common/schemas/licences.ts';
import { type Database, isForeignKeyViolation, type Reader } from '../../db/open.ts';
import { createSecretBox, type SecretBox } from '../../lib/secret-box.ts';
import { contactSql } from '../accounts/accounts.service.ts';
import { kitNamesSql } from '../catalog/catalog.service.ts';
import { entitlementRowsSql, entitlementStateSql } from '../library/library.licence.service.ts';
import {
  DEFAULT_ACTIVATION_LIMIT,
  hashLicenceKey,
  keyTail,
  type LicenceStatus,
  licenceStatus,
  newLicenceKey,
} from './licence-key.ts';

/** The box that seals keys for display to their holders (its own key, derived from SESSION_SECRET). */
export const licenceKeyBox = (sessionSecret: string): SecretBox => createSecretBox(sessionSecret, 'licence-key');

type EntitlementRow = { id: number; user_id: number; kit_id: number; activation_limit?: number | null };

/**
 * Inserts a new key for each of these entitlement rows; a row that has one keeps it, its limit
 * raised to the row's when that is higher (a Solo owner who buys the Team tier).
 */
async function insertKeys(tx: Reader, box: SecretBox, rows: EntitlementRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const keys = rows.map((row) => {
    const key = newLicenceKey();
    return {
      entitlementId: row.id,
      userId: row.user_id,
      kitId: row.kit_id,
      hash: hashLicenceKey(key),
      sealed: box.seal(key),
      tail: keyTail(key),
      limit: row.activation_limit ?? DEFAULT_ACTIVATION_LIMIT,
    };
  });
  const { rows: written } = await tx.execute<{ inserted: boolean }>(sql`
    INSERT INTO licence_keys (entitlement_id, user_id, kit_id, key_hash, key_sealed, key_tail, activation_limit)
    SELECT v."entitlementId", v."userId", v."kitId", v.hash, v.sealed, v.tail, v.limit
      FROM jsonb_to_recordset(${JSON.stringify(keys)}::jsonb)
        AS v("entitlementId" int, "userId" int, "kitId" int, hash text, sealed text, tail text, "limit" int)
    ON CONFLICT (entitlement_id) DO UPDATE
      SET activation_limit = GREATEST(licence_keys.activation_limit, excluded.activation_limit)
      WHERE excluded.activation_limit > licence_keys.activation_limit
    RETURNING (xmax = 0) AS inserted`);
  return written.filter((row) => row.inserted).length;
}

/**
 * Gives each of these users' kits (entitlement rows) a licence key if it has none, in the caller's
 * transaction: the grant and its key commit together. A grant's `activationLimit` (its tier's)
 * raises the limit of a key the kit has already; the key itself stays. Answers the keys inserted.
 */
export async function issueLicenceKeys(
  tx: Reader,
  box: SecretBox,
  grants: { userId: number; kitId: number; activationLimit?: number | undefined }[],
): Promise<number> {
  if (grants.length === 0) return 0;
  const pairs = JSON.stringify(
    grants.map((g) => ({ u: g.userId, k: g.kitId, l: g.activationLimit ?? DEFAULT_ACTIVATION_LIMIT })),
  );
  const { rows } = await tx.execute<EntitlementRow>(sql`
    SELECT e.id, e.user_id, e.kit_id, max(v.l) AS activation_limit FROM (${entitlementRowsSql()}) e
      JOIN jsonb_to_recordset(${pairs}::jsonb) AS v(u int, k int, l int) ON e.user_id = v.u AND e.kit_id = v.k
      LEFT JOIN licence_keys lk ON lk.entitlement_id = e.id
     WHERE lk.id IS NULL OR lk.activation_limit < v.l
     GROUP BY e.id, e.user_id, e.kit_id`);
  return insertKeys(tx, box, rows);
}

/**
 * Lowers the user's keys of these kits to the limit of the tier they still hold (`activationLimit`,
 * or the Solo limit when none is given: a Solo line, a grant, or nothing left), in the caller's
 * transaction: a refund that ends a Team tier. A key is never raised here, and its activations stay;
 * the activation check counts them against the lower limit, so no new one is allowed until they are
 * below it. Answers the keys lowered.
 */
export async function lowerLicenceLimits(
  tx: Reader,
  userId: number,
  held: { kitId: number; activationLimit?: number | undefined }[],
): Promise<number> {
  if (held.length === 0) return 0;
  const limits = JSON.stringify(held.map((h) => ({ k: h.kitId, l: h.activationLimit ?? DEFAULT_ACTIVATION_LIMIT })));
  const { rows } = await tx.execute(sql`
    UPDATE licence_keys lk SET activation_limit = v.l
      FROM (SELECT k, max(l) AS l FROM jsonb_to_recordset(${limits}::jsonb) AS r(k int, l int) GROUP BY k) v
     WHERE lk.user_id = ${userId} AND lk.kit_id = v.k AND lk.activation_limit > v.l
    RETURNING lk.id`);
  return rows.length;
}

/**
 * Keys for every entitlement that has none (the rows from before licence keys, and any written
 * by a path that does not issue them), in batches; the server runs it at start, after migrating.
 * A migration cannot do it: sealing a key takes the server's secret.
 */
export async function issueMissingLicenceKeys(db: Database, box: SecretBox, batch = 500): Promise<number> {
  let issued = 0;
  for (;;) {
    const made = await db.transaction(async (tx) => {
      const { rows } = await tx.execute<EntitlementRow>(sql`
        SELECT e.id, e.user_id, e.kit_id FROM (${entitlementRowsSql()}) e
         WHERE NOT EXISTS (SELECT 1 FROM licence_keys lk WHERE lk.entitlement_id = e.id)
         ORDER BY e.id LIMIT ${batch}`);
      await insertKeys(tx, box, rows);
      return rows.length;
    });
    issued += made;
    if (made < batch) return issued;
  }
}

/** A licence as the API reads it by its key: one statement whether the key exists or not. */
export type FoundLicence = {
  id: number;
  kitId: number;
  status: LicenceStatus;
  activationLimit: number;
  activationUsage: number;
  createdAt: Date;
  kit: { sef_id: string; title: string } | null;
  customerEmail: string;
  instance: { id: string; name: string; created_at: string } | null;
};

type LicenceRow = {
  id: number;
  kit_id: number;
  activation_limit: number;
  disabled: boolean;
  created_at: string | Date;
  entitlement: { revoked: boolean; source: string } | null;
  activations: number;
  kit: { sef_id: string; title: string } | null;
  customer: { email: string } | null;
  instance_id: string | null;
  instance_name: string | null;
  instance_created_at: string | Date | null;
};

const iso = (value: string | Date) => new Date(value).toISOString();

function toLicence(row: LicenceRow): FoundLicence {
  const revoked = row.entitlement?.revoked ?? true;
  return {
    id: row.id,
    kitId: row.kit_id,
    status: licenceStatus({ revoked, disabled: row.disabled, activations: row.activations }),
    activationLimit: row.activation_limit,
    activationUsage: row.activations,
    createdAt: new Date(row.created_at),
    kit: row.kit,
    customerEmail: row.customer?.email ?? '',
    instance:
      row.instance_id && row.instance_name && row.instance_created_at
        ? { id: row.instance_id, name: row.instance_name, created_at: iso(row.instance_created_at) }
        : null,
  };
}

const licenceSelect = (instanceId: SQLWrapper) => sql`
  SELECT lk.id, lk.kit_id, lk.activation_limit, lk.disabled_at IS NOT NULL AS disabled, lk.created_at,
         ${entitlementStateSql(sql`lk.entitlement_id`)} AS entitlement,
         (SELECT count(*)::int FROM licence_activations c WHERE c.licence_key_id = lk.id) AS activations,
         ${kitNamesSql(sql`lk.kit_id`)} AS kit,
         ${contactSql(sql`lk.user_id`)} AS customer,
         a.public_id AS instance_id, a.name AS instance_name, a.created_at AS instance_created_at
    FROM licence_keys lk
    LEFT JOIN licence_activations a ON a.licence_key_id = lk.id AND a.public_id = ${instanceId}`;

/**
 * The key lookup as a named prepared statement, its text rendered once: the API's every call runs
 * it, so PostgreSQL plans it once per connection and no SQL is built per call.
 */
const BY_KEY = new PgDialect().sqlToQuery(
  sql`${licenceSelect(sql.placeholder('instance'))} WHERE lk.key_hash = ${sql.placeholder('hash')}`,
);

/**
 * The licence of a key (by `hashLicenceKey` of it as the client typed it), with the named instance
 * if it is one of the key's. Every key costs one indexed lookup, known or not.
 */
export async function findLicenceByHash(
  pool: Database['$client'],
  keyHash: string,
  instanceId = '',
): Promise<FoundLicence | null> {
  const { rows } = await pool.query<LicenceRow>({
    name: 'licence-by-key',
    text: BY_KEY.sql,
    values: fillPlaceholders(BY_KEY.params, { instance: instanceId, hash: keyHash }) as string[],
  });
  return rows[0] ? toLicence(rows[0]) : null;
}

/**
 * Activates a licence on one more instance unless that would pass its limit. The key's row is
 * locked first, so activations of one key at once take turns and each counts the others; the limit
 * is the locked row's, so a tier bought meanwhile counts.
 */
export async function activateLicence(
  db: Database,
  licence: Pick<FoundLicence, 'id' | 'activationLimit'>,
  name: string,
): Promise<
  | { refused: true; usage: number; limit: number }
  | { refused: false; usage: number; limit: number; instance: NonNullable<FoundLicence['instance']> }
> {
  return db.transaction(async (tx) => {
    // The count is a statement of its own: one statement keeps the snapshot it had before the lock
    // was granted, and would miss the activations committed while it waited.
    const { rows: locked } = await tx.execute<{ activation_limit: number }>(
      sql`SELECT lk.activation_limit FROM licence_keys lk WHERE lk.id = ${licence.id} FOR UPDATE`,
    );
    const limit = locked[0]?.activation_limit ?? licence.activationLimit;
    const { rows: counted } = await tx.execute<{ usage: number }>(sql`
      SELECT count(*)::int AS usage FROM licence_activations WHERE licence_key_id = ${licence.id}`);
    const usage = counted[0]?.usage ?? 0;
    if (usage >= limit) return { refused: true, usage, limit };
    const { rows } = await tx.execute<{ public_id: string; name: string; created_at: string | Date }>(sql`
      INSERT INTO licence_activations (public_id, licence_key_id, name)
      VALUES (${randomUUID()}, ${licence.id}, ${name}) RETURNING public_id, name, created_at`);
    const row = rows[0]!;
    return {
      refused: false,
      usage: usage + 1,
      limit,
      instance: { id: row.public_id, name: row.name, created_at: iso(row.created_at) },
    };
  });
}

/** Removes one activation of a licence; false when the instance is not one of the licence's. */
export async function deactivateInstance(db: Reader, licenceId: number, instanceId: string): Promise<boolean> {
  const { rows } = await db.execute(sql`
    DELETE FROM licence_activations WHERE licence_key_id = ${licenceId} AND public_id = ${instanceId} RETURNING id`);
  return rows.length > 0;
}

/**
 * The holder's licence of a kit, its key unsealed, with its activations (newest first); a kit
 * owned without a key yet gets one now. Null when the user holds no licence of the kit.
 */
export async function findHolderLicence(
  db: Database,
  box: SecretBox,
  userId: number,
  kitId: number,
): Promise<HolderLicence | null> {
  const read = async () => {
    const { rows } = await db.execute<LicenceRow & { key_sealed: string; list: HolderLicence['activations'] | null }>(
      sql`SELECT lk.id, lk.kit_id, lk.activation_limit, lk.disabled_at IS NOT NULL AS disabled, lk.created_at,
                 lk.key_sealed,
                 ${entitlementStateSql(sql`lk.entitlement_id`)} AS entitlement,
                 (SELECT count(*)::int FROM licence_activations c WHERE c.licence_key_id = lk.id) AS activations,
                 (SELECT json_agg(json_build_object('id', a.public_id, 'name', a.name, 'created_at', a.created_at)
                                  ORDER BY a.created_at DESC, a.id DESC)
                    FROM licence_activations a WHERE a.licence_key_id = lk.id) AS list
            FROM licence_keys lk WHERE lk.user_id = ${userId} AND lk.kit_id = ${kitId}`,
    );
    return rows[0];
  };
  let row = await read();
  if (!row) {
    try {
      await db.transaction((tx) => issueLicenceKeys(tx, box, [{ userId, kitId }]));
    } catch (error) {
      // The kit went between the caller's check and the key (a refund, a revoke or the account's
      // deletion committed meanwhile): there is no licence to show, not a failure.
      if (!isForeignKeyViolation(error)) throw error;
      return null;
    }
    row = await read();
  }
  if (!row) return null;
  const key = box.open(row.key_sealed);
  if (!key) return null;
  const licence = toLicence({
    ...row,
    kit: null,
    customer: null,
    instance_id: null,
    instance_name: null,
    instance_created_at: null,
  });
  return {
    key,
    status: licence.status,
    activation_limit: licence.activationLimit,
    activations: (row.list ?? []).map((a) => ({ ...a, created_at: iso(a.created_at) })),
  };
}

/** The holder takes one of their activations back (the item page's `Deactivate`). */
export async function deactivateHolderInstance(
  db: Reader,
  userId: number,
  kitId: number,
  instanceId: string,
): Promise<boolean> {
  const { rows } = await db.execute(sql`
    DELETE FROM licence_activations a USING licence_keys lk
     WHERE a.licence_key_id = lk.id AND lk.user_id = ${userId} AND lk.kit_id = ${kitId} AND a.public_id = ${instanceId}
    RETURNING a.id`);
  return rows.length > 0;
}
