import { type SQL, sql } from 'drizzle-orm';
import { entitlements } from '../../db/schema/library.ts';

/**
 * What the licences feature reads of entitlements (every licence key belongs to one row), as SQL to
 * embed in its statements, so a key and its entitlement are read in one round trip.
 */

/** Every entitlement row (`id, user_id, kit_id, source, revoked_at`): a relation to select from. */
export const entitlementRowsSql = (): SQL =>
  sql`SELECT e.id, e.user_id, e.kit_id, e.source, e.revoked_at FROM ${entitlements} e`;

/** One row's `{revoked, source}` as JSON (the entitlement id column as argument). */
export const entitlementStateSql = (entitlementId: SQL): SQL =>
  sql`(SELECT json_build_object('revoked', e.revoked_at IS NOT NULL, 'source', e.source)
         FROM ${entitlements} e WHERE e.id = ${entitlementId})`;
