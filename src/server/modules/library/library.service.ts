import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { PurchaseItem } from '../../../common/schemas/accounts.ts';
import type { Database } from '../../db/open.ts';
import { users } from '../../db/schema/accounts.ts';
import { kits } from '../../db/schema/catalog.ts';
import { downloads, entitlements, kitGrants } from '../../db/schema/library.ts';

/**
 * The kits a user owns (not refunded), oldest purchase first, each with the version they can
 * download, its release day, and whether it is newer than the user's last download of that kit.
 */
export async function listPurchases(db: Database, userId: number): Promise<PurchaseItem[]> {
  const { rows } = await db.execute<PurchaseItem>(sql`
    SELECT k.id, k.sef_id, k.title, k.spot, v.version, v.released_on,
           COALESCE(v.created_at > (SELECT max(d.created_at) FROM downloads d WHERE d.user_id = e.user_id AND d.kit_id = k.id), false) AS updated
      FROM entitlements e
      JOIN kits k ON k.id = e.kit_id
      LEFT JOIN LATERAL (SELECT version, released_on, created_at FROM kit_versions WHERE kit_id = k.id ORDER BY created_at DESC, id DESC LIMIT 1) v ON true
     WHERE e.user_id = ${userId} AND e.revoked_at IS NULL
     ORDER BY e.granted_at, k.id`);
  return rows;
}

/** A kit by slug, with its setup guide, if the user owns it now. */
export async function findOwnedKit(db: Database, userId: number, sefId: string) {
  const [kit] = await db
    .select({ title: kits.title, spot: kits.spot, setupHtml: kits.setupHtml, owned: entitlements.id })
    .from(kits)
    .leftJoin(
      entitlements,
      and(eq(entitlements.kitId, kits.id), eq(entitlements.userId, userId), isNull(entitlements.revokedAt)),
    )
    .where(eq(kits.sefId, sefId))
    .limit(1);
  if (!kit) return 'unknown' as const;
  if (kit.owned === null) return 'not_owned' as const;
  return kit;
}

/** What `/download/{id}` hands out, in one query: the kit, whether the user owns it, its newest version. */
export async function findDownload(db: Database, userId: number, kitId: number) {
  const { rows } = await db.execute<{
    sef_id: string;
    owned: boolean;
    version_id: number | null;
    version: string | null;
    storage_key: string | null;
    sha256: string | null;
  }>(sql`
    SELECT k.sef_id, e.id IS NOT NULL AS owned, v.id AS version_id, v.version, v.storage_key, v.sha256
      FROM kits k
      LEFT JOIN entitlements e ON e.kit_id = k.id AND e.user_id = ${userId} AND e.revoked_at IS NULL
      LEFT JOIN LATERAL (SELECT id, version, storage_key, sha256 FROM kit_versions
                          WHERE kit_id = k.id ORDER BY created_at DESC, id DESC LIMIT 1) v ON true
     WHERE k.id = ${kitId}`);
  const row = rows[0];
  if (!row) return 'unknown' as const;
  if (!row.owned) return 'not_owned' as const;
  const version =
    row.version_id === null
      ? undefined
      : { id: row.version_id, version: row.version!, storageKey: row.storage_key!, sha256: row.sha256! };
  return { sefId: row.sef_id, version };
}

export async function logDownload(
  db: Database,
  entry: { userId: number; kitId: number; versionId: number; ip: string },
) {
  await db.insert(downloads).values(entry);
}

/**
 * Makes kits owned (idempotent; a revoked grant is restored): the statement, for several users at
 * once (each user and kit once), so a caller can run it inside a larger statement.
 */
export function grantQuery(db: Pick<Database, 'insert'>, grants: { userId: number; kitId: number; source: string }[]) {
  return db
    .insert(entitlements)
    .values(grants)
    .onConflictDoUpdate({
      target: [entitlements.userId, entitlements.kitId],
      set: {
        revokedAt: null,
        source: sql`excluded.source`,
        grantedAt: sql`CASE WHEN ${entitlements.revokedAt} IS NULL THEN ${entitlements.grantedAt} ELSE now() END`,
      },
    });
}

/** Takes kits away again (a refund or chargeback); downloads stop, the purchase list drops them. */
export async function revokeEntitlements(
  db: Pick<Database, 'update'>,
  userId: number,
  kitIds: number[],
): Promise<void> {
  if (kitIds.length === 0) return;
  await db
    .update(entitlements)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(entitlements.userId, userId),
        inArray(entitlements.kitId, kitIds),
        isNull(entitlements.revokedAt),
        // A kit an owner granted stays while the grant does.
        sql`NOT EXISTS (SELECT 1 FROM ${kitGrants} g WHERE g.user_id = ${entitlements.userId}
                           AND g.kit_id = ${entitlements.kitId} AND g.revoked_at IS NULL)`,
      ),
    );
}

/** Which of these kits the user owns now (not refunded). */
export async function ownedKitIds(
  db: Pick<Database, 'select'>,
  userId: number,
  kitIds: number[],
): Promise<Set<number>> {
  if (kitIds.length === 0) return new Set();
  const rows = await db
    .select({ kitId: entitlements.kitId })
    .from(entitlements)
    .where(and(eq(entitlements.userId, userId), isNull(entitlements.revokedAt), inArray(entitlements.kitId, kitIds)));
  return new Set(rows.map((r) => r.kitId));
}

/**
 * Which of `kitIds` the user owns now, as an int[] expression to embed in a caller's statement (its
 * columns as arguments), so a caller that locks rows can read ownership in the same round trip.
 */
export const ownedKitsSql = (userId: SQL, kitIds: SQL): SQL =>
  sql`ARRAY(SELECT e.kit_id FROM ${entitlements} e
             WHERE e.user_id = ${userId} AND e.revoked_at IS NULL AND e.kit_id = ANY(${kitIds}) ORDER BY e.kit_id)`;

/** Everyone who owns a kit now, to tell them about a new version. */
export async function kitOwners(
  db: Pick<Database, 'select'>,
  kitId: number,
): Promise<{ name: string; email: string }[]> {
  return db
    .select({ name: users.name, email: users.email })
    .from(entitlements)
    .innerJoin(users, eq(users.id, entitlements.userId))
    .where(and(eq(entitlements.kitId, kitId), isNull(entitlements.revokedAt)));
}
