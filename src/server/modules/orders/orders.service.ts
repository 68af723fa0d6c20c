import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { centsToDollars } from '../../../common/money.ts';
import type { CartResponse } from '../../../common/schemas/orders.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders } from '../../db/schema/orders.ts';
import { findEmail } from '../accounts/accounts.service.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import { ownedKitIds } from '../library/library.service.ts';

/** Sum of integer cents: the money rule the totals follow. */
export const totalCents = (prices: number[]) => prices.reduce((sum, cents) => sum + cents, 0);

/**
 * Prices a cart from the catalog (never from the client): unknown ids are dropped, kits the
 * signed-in user owns are marked purchased. With `checkout`, creates or reuses one pending order
 * for exactly the kits still to pay for.
 */
export async function priceCart(
  deps: { db: Database; catalog: Catalog },
  productIds: number[],
  user: { id: number } | null,
  checkout: boolean,
): Promise<CartResponse> {
  const { db, catalog } = deps;
  const snapshot = await catalog.snapshot();
  const entries = [...new Set(productIds)].map((id) => snapshot.byId.get(id)).filter((e) => e !== undefined);
  const owned = user
    ? await ownedKitIds(
        db,
        user.id,
        entries.map((e) => e.kit.id),
      )
    : new Set<number>();
  const items = entries.map(({ kit }) => ({
    id: kit.id,
    title: kit.title,
    spot: kit.spot,
    price: centsToDollars(kit.priceCents),
    purchased: owned.has(kit.id),
    paddle_id: kit.paddlePriceId,
  }));
  if (!checkout || !user) return { items, order_id: null, email: null };

  const email = await findEmail(db, user.id);
  const toPay = entries.filter(({ kit }) => !owned.has(kit.id)).map((e) => e.kit);
  if (toPay.length === 0) return { items, order_id: null, email };
  const itemsKey = toPay
    .map((k) => k.id)
    .sort((a, b) => a - b)
    .join(',');
  const total = totalCents(toPay.map((k) => k.priceCents));
  const orderId = await db.transaction(async (tx) => {
    // Reuse the pending order for the same kits at the same total (a reload, a second tab).
    const [pending] = await tx
      .select({ id: orders.id, publicId: orders.publicId, totalCents: orders.totalCents })
      .from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.status, 'pending'), eq(orders.itemsKey, itemsKey)))
      .limit(1);
    if (pending && pending.totalCents === total) return pending.publicId;
    const publicId = `ord_${randomBytes(12).toString('hex')}`;
    const [order] = await tx
      .insert(orders)
      .values({ publicId, userId: user.id, totalCents: total, itemsKey })
      .returning({ id: orders.id });
    await tx.insert(orderItems).values(
      toPay.map((kit) => ({
        orderId: order!.id,
        kitId: kit.id,
        title: kit.title,
        priceCents: kit.priceCents,
        paddlePriceId: kit.paddlePriceId,
      })),
    );
    return publicId;
  });
  return { items, order_id: orderId, email };
}
