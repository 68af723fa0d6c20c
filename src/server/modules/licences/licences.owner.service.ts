import { sql } from 'drizzle-orm';
import type { OwnerLicence } from '../../../common/schemas/licences.ts';
import type { Reader } from '../../db/open.ts';
import { contactSql } from '../accounts/accounts.service.ts';
import { kitNamesSql } from '../catalog/catalog.service.ts';
import { entitlementStateSql } from '../library/library.licence.service.ts';
import { licenceStatus, maskKey } from './licence-key.ts';

type Row = {
  id: number;
  kit_id: number;
  user_id: number;
  key_tail: string;
  activation_limit: number;
  disabled: boolean;
  created_at: string | Date;
  entitlement: { revoked: boolean; source: string } | null;
  activations: number;
  kit: { title: string } | null;
  holder: { email: string } | null;
};

const select = sql`
  SELECT lk.id, lk.kit_id, lk.user_id, lk.key_tail, lk.activation_limit, lk.disabled_at IS NOT NULL AS disabled, lk.created_at,
         ${entitlementStateSql(sql`lk.entitlement_id`)} AS entitlement,
         (SELECT count(*)::int FROM licence_activations c WHERE c.licence_key_id = lk.id) AS activations,
         ${kitNamesSql(sql`lk.kit_id`)} AS kit,
         ${contactSql(sql`lk.user_id`)} AS holder
    FROM licence_keys lk`;

const toOwnerLicence = (row: Row): OwnerLicence => ({
  id: row.id,
  kit_id: row.kit_id,
  kit_title: row.kit?.title ?? '',
  holder: row.holder?.email ?? '',
  key: maskKey(row.key_tail),
  status: licenceStatus({
    revoked: row.entitlement?.revoked ?? true,
    disabled: row.disabled,
    activations: row.activations,
  }),
  activation_limit: row.activation_limit,
  activation_usage: row.activations,
  created_at: new Date(row.created_at).toISOString(),
});

/**
 * A customer's licence keys of these kits (an order's), in kit order, then those of the order's
 * seat holders: each the key of the seat's own entitlement (its source `seat:<id>`).
 */
export async function licencesOf(
  db: Reader,
  userId: number,
  kitIds: number[],
  seatHolders: { userId: number; kitId: number; source: string }[] = [],
): Promise<OwnerLicence[]> {
  if (kitIds.length === 0 && seatHolders.length === 0) return [];
  const seats = JSON.stringify(seatHolders.map((s) => ({ u: s.userId, k: s.kitId, s: s.source })));
  const { rows } = await db.execute<Row & { seat: boolean }>(
    sql`SELECT * FROM (
          ${select} WHERE lk.user_id = ${userId} AND lk.kit_id = ANY(${sql.param(kitIds)}::int[])
        ) own
        UNION ALL
        SELECT * FROM (
          ${select} JOIN jsonb_to_recordset(${seats}::jsonb) AS v(u int, k int, s text)
            ON lk.user_id = v.u AND lk.kit_id = v.k
        ) held
        WHERE held.entitlement->>'source' = ANY(${sql.param(seatHolders.map((s) => s.source))}::text[])
        ORDER BY kit_id, id`,
  );
  return rows.map(toOwnerLicence);
}

/** One key with its holder, or undefined. */
export async function findOwnerLicence(
  db: Reader,
  id: number,
): Promise<(OwnerLicence & { user_id: number }) | undefined> {
  const { rows } = await db.execute<Row>(sql`${select} WHERE lk.id = ${id}`);
  return rows[0] && { ...toOwnerLicence(rows[0]), user_id: rows[0].user_id };
}

/** The owner's switch; false when the key already stood so (nothing changed). */
export async function setLicenceDisabled(tx: Reader, id: number, disabled: boolean): Promise<boolean> {
  const { rows } = await tx.execute(
    disabled
      ? sql`UPDATE licence_keys SET disabled_at = now() WHERE id = ${id} AND disabled_at IS NULL RETURNING id`
      : sql`UPDATE licence_keys SET disabled_at = NULL WHERE id = ${id} AND disabled_at IS NOT NULL RETURNING id`,
  );
  return rows.length > 0;
}

/** Removes every activation of a key (a buyer's machines replaced); answers how many there were. */
export async function resetLicenceActivations(tx: Reader, id: number): Promise<number> {
  const { rows } = await tx.execute(sql`DELETE FROM licence_activations WHERE licence_key_id = ${id} RETURNING id`);
  return rows.length;
}
