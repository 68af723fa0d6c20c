import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { kitTitleSql } from '../catalog/catalog.service.ts';

/**
 * The licences' part of the account's data export: each licence and the machines it is activated
 * on, without the key itself (a secret, like the passwords and tokens the export leaves out).
 * Erasure needs nothing of its own: an account's keys go with its entitlements (cascade).
 */
export async function licenceExport(db: Reader, userId: number) {
  const { rows } = await db.execute<{
    kit_id: number;
    title: string;
    issued_at: string;
    disabled_at: string | null;
    activations: { name: string; activated_at: string }[];
  }>(sql`
    SELECT lk.kit_id, ${kitTitleSql(sql`lk.kit_id`)} AS title, lk.created_at AS issued_at, lk.disabled_at,
           COALESCE((SELECT json_agg(json_build_object('name', a.name, 'activated_at', a.created_at) ORDER BY a.created_at, a.id)
                       FROM licence_activations a WHERE a.licence_key_id = lk.id), '[]'::json) AS activations
      FROM licence_keys lk WHERE lk.user_id = ${userId} ORDER BY lk.created_at, lk.id`);
  return rows;
}
