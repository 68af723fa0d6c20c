import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { centsToDollars } from '../../../common/money.ts';
import type { CartResponse } from '../../../common/schemas/orders.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders } from '../../db/schema/orders.ts';
import { findEmail } from '../accounts/accounts.service.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import { ownedKitIds } from '../library/library.service.ts';

type CartDeps = { db: Database; catalog: Catalog };

/** Sum of integer cents: the money rule the totals follow. */
export const totalCents = (prices: number[]) => prices.reduce((sum, cents) => sum + cents, 0);

/** The cart's known kits from the catalog (never from the client), and those the user owns already. */
async function readCart(deps: CartDeps, productIds: number[], user: { id: number } | null) {
  const snapshot = await deps.catalog.snapshot();
  const kits = [...new Set(productIds)].map((id) => snapshot.byId.get(id)?.kit).filter((k) => k !== undefined);
  const owned = user
    ? await ownedKitIds(
        deps.db,
        user.id,
        kits.map((k) => k.id),
      )
    : new Set<number>();
  const items = kits.map((kit) => ({
    id: kit.id,
    title: kit.title,
    spot: kit.spot,
    price: centsToDollars(kit.priceCents),
    purchased: owned.has(kit.id),
    paddle_id: kit.paddlePriceId,
  }));
  return { kits, owned, items };
}

/**
 * Prices a cart from the catalog (never from the client): unknown ids are dropped, kits the
 * signed-in user owns are marked purchased. Writes nothing.
 */
export async function priceCart(
  deps: CartDeps,
  productIds: number[],
  user: { id: number } | null,
): Promise<CartResponse> {
  const { items } = await readCart(deps, productIds, user);
  return { items, order_id: null, email: null };
}

/**
 * Prices the cart as `priceCart` does and opens its pending order: one order for exactly the kits
 * still to pay for, created, or reused when the same kits at the same total are pending already
 * (a reload, a second tab). No order when everything is owned.
 */
export async function checkOutCart(deps: CartDeps, productIds: number[], user: { id: number }): Promise<CartResponse> {
  const { db } = deps;
  const { kits, owned, items } = await readCart(deps, productIds, user);
  const email = await findEmail(db, user.id);
  const toPay = kits.filter((kit) => !owned.has(kit.id));
  if (toPay.length === 0) return { items, order_id: null, email };
  const itemsKey = toPay
    .map((k) => k.id)
    .sort((a, b) => a - b)
    .join(',');
  const total = totalCents(toPay.map((k) => k.priceCents));
  const orderId = await db.transaction(async (tx) => {
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

/** A buyer's order by its public id, with its lines (what the sandbox page shows and pays). */
export async function findBuyerOrder(db: Database, publicId: string, userId: number) {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.publicId, publicId), eq(orders.userId, userId)));
  if (!order) return undefined;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  return { order, items };
}
