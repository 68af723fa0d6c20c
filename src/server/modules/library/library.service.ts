import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { PurchaseItem } from '../../../common/schemas/accounts.ts';
import type { Database } from '../../db/open.ts';
import { downloads, entitlements, kitGrants, updateMailOptOuts } from '../../db/schema/library.ts';
import { findKitArchive, findKitGuide, findKitReleases } from '../catalog/catalog.service.ts';

/**
 * The kits a user owns (not refunded), oldest purchase first, each with the version they can
 * download, its release day, and whether it is newer than the user's last download of that kit.
 */
export async function listPurchases(db: Database, userId: number): Promise<Omit<PurchaseItem, 'repository'>[]> {
  const owned = await db
    .select({
      kitId: entitlements.kitId,
      lastDownloadAt: sql<Date | null>`(SELECT max(${downloads.createdAt}) FROM ${downloads}
        WHERE ${downloads.userId} = ${entitlements.userId} AND ${downloads.kitId} = ${entitlements.kitId})`.mapWith(
        downloads.createdAt,
      ),
    })
    .from(entitlements)
    .where(and(eq(entitlements.userId, userId), isNull(entitlements.revokedAt)))
    .orderBy(asc(entitlements.grantedAt), asc(entitlements.kitId));
  const kits = new Map(
    (
      await findKitReleases(
        db,
        owned.map((o) => o.kitId),
      )
    ).map((k) => [k.id, k]),
  );
  return owned.flatMap(({ kitId, lastDownloadAt }) => {
    const kit = kits.get(kitId);
    if (!kit) return [];
    return {
      id: kit.id,
      sef_id: kit.sefId,
      title: kit.title,
      spot: kit.spot,
      listed: kit.listed,
      documentation: kit.listed && kit.hasDocs,
      version: kit.version,
      released_on: kit.releasedOn,
      updated: kit.importedAt !== null && lastDownloadAt !== null && kit.importedAt > lastDownloadAt,
    };
  });
}

/** A kit by slug, with its setup guide, if the user owns it now. */
export async function findOwnedKit(db: Database, userId: number, sefId: string) {
  const kit = await findKitGuide(db, sefId);
  if (!kit) return 'unknown' as const;
  if (!(await ownedKitIds(db, userId, [kit.id])).has(kit.id)) return 'not_owned' as const;
  return kit;
}

/** What `/download/{id}` hands out: the kit, whether the user owns it, its newest version. */
export async function findDownload(db: Database, userId: number, kitId: number) {
  const [kit, owned] = await Promise.all([findKitArchive(db, kitId), ownedKitIds(db, userId, [kitId])]);
  if (!kit) return 'unknown' as const;
  if (!owned.has(kitId)) return 'not_owned' as const;
  return kit;
}

export async function logDownload(
  db: Database,
  entry: { userId: number; kitId: number; versionId: number; ip: string },
) {
  await db.insert(downloads).values(entry);
}

/**
 * Makes kits owned (idempotent; a revoked grant is restored): the statement, for several users at
 * once (each user and kit once, as one JSON parameter), so a caller can run it inside a larger statement.
 */
export function grantSql(grants: { userId: number; kitId: number; source: string }[]): SQL {
  return sql`INSERT INTO ${entitlements} (user_id, kit_id, source)
    SELECT v."userId", v."kitId", v.source
      FROM jsonb_to_recordset(${JSON.stringify(grants)}::jsonb) AS v("userId" int, "kitId" int, source text)
    ON CONFLICT (user_id, kit_id) DO UPDATE SET revoked_at = NULL, source = excluded.source,
       granted_at = CASE WHEN ${entitlements}.revoked_at IS NULL THEN ${entitlements}.granted_at ELSE now() END`;
}

/** Takes kits away again (a refund or chargeback); downloads stop, the purchase list drops them. */
export async function revokeEntitlements(
  db: Pick<Database, 'update'>,
  userId: number,
  kitIds: number[],
): Promise<number[]> {
  if (kitIds.length === 0) return [];
  const revoked = await db
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
    )
    .returning({ kitId: entitlements.kitId });
  return revoked.map((r) => r.kitId);
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

/** Every kit a user owns now, as an int[] expression to embed in a caller's statement. */
export const userKitIdsSql = (userId: SQL): SQL =>
  sql`ARRAY(SELECT e.kit_id FROM ${entitlements} e WHERE e.user_id = ${userId} AND e.revoked_at IS NULL)`;

/** Everyone who owns a kit now, to tell them about a new version. */
export async function kitOwnerIds(db: Pick<Database, 'select'>, kitId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: entitlements.userId })
    .from(entitlements)
    .where(and(eq(entitlements.kitId, kitId), isNull(entitlements.revokedAt)));
  return rows.map((r) => r.userId);
}

/**
 * Everyone who owns a kit now and has not turned update mails off, as a relation `(user_id)` to
 * embed in a caller's statement (the new-version mail to each).
 */
export const updateMailRecipientIdsSql = (kitId: number): SQL =>
  sql`SELECT e.user_id FROM ${entitlements} e WHERE e.kit_id = ${kitId} AND e.revoked_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM ${updateMailOptOuts} o WHERE o.user_id = e.user_id)`;

/** Whether the user gets mail about new versions of their kits. */
export async function wantsUpdateMails(db: Pick<Database, 'select'>, userId: number): Promise<boolean> {
  const rows = await db
    .select({ userId: updateMailOptOuts.userId })
    .from(updateMailOptOuts)
    .where(eq(updateMailOptOuts.userId, userId));
  return rows.length === 0;
}

/** Turns the user's update mails on or off (one switch for all their kits). */
export async function setUpdateMails(db: Database, userId: number, enabled: boolean): Promise<void> {
  if (enabled) await db.delete(updateMailOptOuts).where(eq(updateMailOptOuts.userId, userId));
  else await db.insert(updateMailOptOuts).values({ userId }).onConflictDoNothing();
}

/** A kit's downloads per version id (the owner console's versions list). */
export async function downloadsByVersion(db: Pick<Database, 'select'>, kitId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ versionId: downloads.versionId, n: sql<number>`count(*)::int` })
    .from(downloads)
    .where(eq(downloads.kitId, kitId))
    .groupBy(downloads.versionId);
  return new Map(rows.map((r) => [r.versionId, r.n]));
}

/**
 * Ends entitlements that came from these sources (a freed seat, `seat:<id>`): one the user has
 * since bought or been granted themselves has another source, or a grant, and stays.
 */
export async function revokeEntitlementsFrom(
  db: Pick<Database, 'update'>,
  from: { userId: number; kitId: number; source: string }[],
): Promise<number> {
  let revoked = 0;
  for (const { userId, kitId, source } of from) {
    const rows = await db
      .update(entitlements)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(entitlements.userId, userId),
          eq(entitlements.kitId, kitId),
          eq(entitlements.source, source),
          isNull(entitlements.revokedAt),
          sql`NOT EXISTS (SELECT 1 FROM ${kitGrants} g WHERE g.user_id = ${entitlements.userId}
                             AND g.kit_id = ${entitlements.kitId} AND g.revoked_at IS NULL)`,
        ),
      )
      .returning({ id: entitlements.id });
    revoked += rows.length;
  }
  return revoked;
}
