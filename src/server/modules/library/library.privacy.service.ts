import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { deletedRows } from '../../lib/housekeeping.ts';
import { kitTitleSql, kitVersionNameSql } from '../catalog/catalog.service.ts';

/** The library's part of the privacy rights: kits owned and downloads, their erasure, retention. */

/** Every kit the user holds or held (with where it came from), the owners' grants, and each download. */
export async function libraryExport(db: Reader, userId: number) {
  const [kits, grants, downloads] = await Promise.all([
    db.execute<{ kit_id: number; title: string; source: string; granted_at: string; revoked_at: string | null }>(sql`
      SELECT e.kit_id, ${kitTitleSql(sql`e.kit_id`)} AS title, e.source, e.granted_at, e.revoked_at
        FROM entitlements e
       WHERE e.user_id = ${userId} ORDER BY e.granted_at, e.kit_id`),
    db.execute<{ kit_id: number; note: string; granted_at: string; revoked_at: string | null }>(sql`
      SELECT kit_id, note, granted_at, revoked_at FROM kit_grants WHERE user_id = ${userId} ORDER BY granted_at, id`),
    db.execute<{ kit_id: number; version: string; ip: string | null; at: string }>(sql`
      SELECT d.kit_id, ${kitVersionNameSql(sql`d.version_id`)} AS version, d.ip, d.created_at AS at
        FROM downloads d
       WHERE d.user_id = ${userId} ORDER BY d.created_at, d.id`),
  ]);
  return { kits: kits.rows, grants: grants.rows, downloads: downloads.rows };
}

/** An erased account keeps no kit, grant or download log. */
export async function forgetLibraryUser(tx: Reader, userId: number): Promise<void> {
  await tx.execute(sql`DELETE FROM downloads WHERE user_id = ${userId}`);
  await tx.execute(sql`DELETE FROM kit_grants WHERE user_id = ${userId}`);
  await tx.execute(sql`DELETE FROM entitlements WHERE user_id = ${userId}`);
}

/** Download logs (with their IP addresses) older than `days`; housekeeping runs it. */
export async function sweepOldDownloads(db: Reader, days: number): Promise<number> {
  return deletedRows(
    await db.execute(sql`DELETE FROM downloads WHERE created_at < now() - make_interval(days => ${days})`),
  );
}
