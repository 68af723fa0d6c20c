import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { containsPattern } from '../../lib/search.ts';
import { CATALOG_CHANNEL } from './catalog.service.ts';

/** What the owner console reads and changes of the catalog (only the catalog's own tables). */

export type OwnerKitRow = {
  id: number;
  sef_id: string;
  title: string;
  price_cents: number;
  /** In the content (an import keeps it). */
  in_content: boolean;
  hidden: boolean;
};

const KIT_COLUMNS = sql`id, sef_id, title, price_cents, active AS in_content, hidden_at IS NOT NULL AS hidden`;

/** Every kit ever imported (hidden and removed ones too), in store order. */
export async function allKits(db: Reader): Promise<OwnerKitRow[]> {
  const { rows } = await db.execute<OwnerKitRow>(sql`SELECT ${KIT_COLUMNS} FROM kits ORDER BY position, id`);
  return rows;
}

/** Every kit as `allKits` lists them, with its newest version and that version's release day. */
export async function allKitsWithNewestVersion(
  db: Reader,
): Promise<(OwnerKitRow & { version: string | null; released_on: string | null })[]> {
  const { rows } = await db.execute<OwnerKitRow & { version: string | null; released_on: string | null }>(sql`
    SELECT ${KIT_COLUMNS}, v.version, v.released_on
      FROM kits
      LEFT JOIN LATERAL (SELECT version, released_on FROM kit_versions WHERE kit_versions.kit_id = kits.id
                          ORDER BY created_at DESC, id DESC LIMIT 1) v ON true
     ORDER BY position, id`);
  return rows;
}

export async function kitById(db: Reader, id: number): Promise<OwnerKitRow | undefined> {
  const { rows } = await db.execute<OwnerKitRow>(sql`SELECT ${KIT_COLUMNS} FROM kits WHERE id = ${id}`);
  return rows[0];
}

/** Ids of kits whose title or slug contains the text. */
export async function kitIdsMatching(db: Reader, query: string): Promise<number[]> {
  const pattern = containsPattern(query);
  const { rows } = await db.execute<{ id: number }>(
    sql`SELECT id FROM kits WHERE title ILIKE ${pattern} OR sef_id ILIKE ${pattern}`,
  );
  return rows.map((r) => r.id);
}

/**
 * Hides a kit from the store or shows it again (owners keep it either way). Every server drops its
 * cached catalog at commit. A catalog import never clears `hidden_at`.
 */
export async function setKitHidden(tx: Reader, id: number, hidden: boolean): Promise<void> {
  await tx.execute(sql`
    UPDATE kits SET hidden_at = ${hidden ? sql`COALESCE(hidden_at, now())` : sql`NULL`}, updated_at = now()
     WHERE id = ${id}`);
  await tx.execute(sql`SELECT pg_notify(${CATALOG_CHANNEL}, 'visibility')`);
}
