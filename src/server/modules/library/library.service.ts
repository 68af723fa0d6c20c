import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PurchaseItem } from '../../../common/schemas/accounts.ts';
import type { Database } from '../../db/open.ts';
import { kits } from '../../db/schema/catalog.ts';
import { entitlements } from '../../db/schema/library.ts';

/** The kits a user owns (not refunded), oldest purchase first. */
export async function listPurchases(db: Database, userId: number): Promise<PurchaseItem[]> {
  return db
    .select({ id: kits.id, sef_id: kits.sefId, title: kits.title, spot: kits.spot })
    .from(entitlements)
    .innerJoin(kits, eq(kits.id, entitlements.kitId))
    .where(and(eq(entitlements.userId, userId), isNull(entitlements.revokedAt)))
    .orderBy(asc(entitlements.grantedAt), asc(kits.id));
}

/** Makes kits owned by a user (idempotent; a revoked grant is restored). */
export async function grantEntitlements(
  db: Pick<Database, 'insert'>,
  userId: number,
  kitIds: number[],
  source: string,
): Promise<void> {
  if (kitIds.length === 0) return;
  await db
    .insert(entitlements)
    .values(kitIds.map((kitId) => ({ userId, kitId, source })))
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
