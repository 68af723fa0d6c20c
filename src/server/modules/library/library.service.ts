import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PurchaseItem } from '../../../common/schemas/accounts.ts';
import type { Database } from '../../db/open.ts';
import { users } from '../../db/schema/accounts.ts';
import { kits } from '../../db/schema/catalog.ts';
import { downloads, entitlements, kitVersions } from '../../db/schema/library.ts';

export type PurchaseWithVersion = PurchaseItem & {
  version: string | null;
  released_on: string | null;
  updated: boolean;
};

/**
 * The kits a user owns (not refunded), oldest purchase first, each with the version they can
 * download, its release day, and whether it is newer than the user's last download of that kit.
 */
export async function listPurchases(db: Database, userId: number): Promise<PurchaseWithVersion[]> {
  const { rows } = await db.execute<PurchaseWithVersion>(sql`
    SELECT k.id, k.sef_id, k.title, k.spot, v.version, v.released_on,
           COALESCE(v.created_at > (SELECT max(d.created_at) FROM downloads d WHERE d.user_id = e.user_id AND d.kit_id = k.id), false) AS updated
      FROM entitlements e
      JOIN kits k ON k.id = e.kit_id
      LEFT JOIN LATERAL (SELECT version, released_on, created_at FROM kit_versions WHERE kit_id = k.id ORDER BY created_at DESC, id DESC LIMIT 1) v ON true
     WHERE e.user_id = ${userId} AND e.revoked_at IS NULL
     ORDER BY e.granted_at, k.id`);
  return rows;
}

/** A kit by id or slug, if the user owns it now. */
export async function findOwnedKit(db: Database, userId: number, by: { id: number } | { sefId: string }) {
  const [kit] = await db
    .select({
      id: kits.id,
      sefId: kits.sefId,
      title: kits.title,
      spot: kits.spot,
      setupHtml: kits.setupHtml,
      owned: entitlements.id,
    })
    .from(kits)
    .leftJoin(
      entitlements,
      and(eq(entitlements.kitId, kits.id), eq(entitlements.userId, userId), isNull(entitlements.revokedAt)),
    )
    .where('id' in by ? eq(kits.id, by.id) : eq(kits.sefId, by.sefId))
    .limit(1);
  if (!kit) return 'unknown' as const;
  if (kit.owned === null) return 'not_owned' as const;
  return kit;
}

export async function latestVersion(db: Database, kitId: number) {
  const [version] = await db
    .select()
    .from(kitVersions)
    .where(eq(kitVersions.kitId, kitId))
    .orderBy(desc(kitVersions.createdAt), desc(kitVersions.id))
    .limit(1);
  return version;
}

export async function logDownload(
  db: Database,
  entry: { userId: number; kitId: number; versionId: number; ip: string },
) {
  await db.insert(downloads).values(entry);
}

/** Makes kits owned by a user (idempotent; a revoked grant is restored). */
export async function grantEntitlements(
  db: Pick<Database, 'insert'>,
  userId: number,
  kitIds: number[],
  source: string,
): Promise<void> {
  if (kitIds.length === 0) return;
  await grantQuery(
    db,
    kitIds.map((kitId) => ({ userId, kitId, source })),
  );
}

/**
 * The statement behind grantEntitlements, for several users at once (each user and kit once), so
 * a caller can run it inside a larger statement.
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
    .where(and(eq(entitlements.userId, userId), inArray(entitlements.kitId, kitIds), isNull(entitlements.revokedAt)));
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
