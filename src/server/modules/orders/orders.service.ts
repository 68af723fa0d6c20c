import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { centsToDollars, formatUsd } from '../../../common/money.ts';
import type { CartItem, CartResponse } from '../../../common/schemas/orders.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders } from '../../db/schema/orders.ts';
import { AppError } from '../../http/errors.ts';
import { createTransaction, PaddleApiError } from '../../integrations/payments/paddle-api.ts';
import { findEmail } from '../accounts/accounts.service.ts';
import type { Catalog, CatalogSnapshot } from '../catalog/catalog.service.ts';
import { ownedKitIds } from '../library/library.service.ts';
import { type DiscountCode, holdCheckoutCode, holdCode, paidLinesOf, usableCode } from './discounts.service.ts';
import { spreadDiscount, upgradePriceCents } from './pricing.ts';

type CartDeps = {
  db: Database;
  catalog: Catalog;
  /** With PAYMENT_PROVIDER=paddle: Paddle's API, for the transactions of upgrade prices. */
  paddle?: { apiUrl: string; apiKey: string | undefined };
  /** SHOP_TIME_ZONE: the days a code's refusal names. */
  timeZone: string;
};
type CartKit = NonNullable<ReturnType<CatalogSnapshot['byId']['get']>>['kit'];

/** Sum of integer cents: the money rule the totals follow. */
export const totalCents = (prices: number[]) => prices.reduce((sum, cents) => sum + cents, 0);

/** One priced line, in cents: the kit's price, its upgrade price, what a code takes off, what is paid. */
type PricedLine = {
  kit: CartKit;
  /** The active kits a bundle grants besides itself. */
  includes: CartKit[];
  purchased: boolean;
  /** Title of the bundle in this cart that covers this kit already. */
  includedIn: string | null;
  baseCents: number;
  upgradeReason: string | null;
  /** With an upgrade price: what it took off the kit's price, and the lines whose payment counted. */
  creditCents: number;
  creditedItems: number[];
  discountCents: number;
  toPay: boolean;
};

/**
 * What the buyer paid for these kits and kept (paid lines less their refunds; a kit paid twice
 * counts once, by its line that kept most), with that line, which an upgrade records as credited.
 */
async function paidCentsByKit(
  db: Database,
  userId: number,
  kitIds: number[],
): Promise<Map<number, { itemId: number; cents: number }>> {
  if (kitIds.length === 0) return new Map();
  const kept = sql<number>`${orderItems.priceCents} - ${orderItems.refundedCents}`;
  const rows = await db
    .selectDistinctOn([orderItems.kitId], { kitId: orderItems.kitId, itemId: orderItems.id, cents: kept })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(paidLinesOf(userId), inArray(orderItems.kitId, kitIds)))
    .orderBy(orderItems.kitId, sql`${kept} DESC`, orderItems.id);
  return new Map(rows.map((r) => [r.kitId, { itemId: r.itemId, cents: r.cents }]));
}

/**
 * The cart priced from the catalog (never from the client): unknown ids dropped, kits the user owns
 * marked purchased, a kit a bundle in the cart includes left out, a bundle whose kits the user owns
 * in part at its upgrade price, and the code (if any) taken off the lines it applies to.
 */
async function readCart(deps: CartDeps, productIds: number[], user: { id: number } | null, codeText?: string) {
  const snapshot = await deps.catalog.snapshot();
  const kits = [...new Set(productIds)].map((id) => snapshot.byId.get(id)?.kit).filter((k) => k !== undefined);
  const includesOf = (kit: CartKit): CartKit[] =>
    kit.includes.flatMap((sef) => {
      const included = snapshot.bySef.get(sef)?.kit;
      return included && included.id !== kit.id ? [included] : [];
    });
  const everyKit = kits.flatMap((k) => [k, ...includesOf(k)]).map((k) => k.id);
  const owned = user ? await ownedKitIds(deps.db, user.id, everyKit) : new Set<number>();
  const ownedIncluded = kits.flatMap((k) => (owned.has(k.id) ? [] : includesOf(k).filter((i) => owned.has(i.id))));
  const paid = user
    ? await paidCentsByKit(
        deps.db,
        user.id,
        ownedIncluded.map((k) => k.id),
      )
    : new Map<number, { itemId: number; cents: number }>();
  const lines: PricedLine[] = kits.map((kit) => {
    const includes = includesOf(kit);
    const purchased = owned.has(kit.id);
    const bundle = kits.find((b) => b !== kit && !owned.has(b.id) && includesOf(b).some((i) => i.id === kit.id));
    const ownedHere = purchased ? [] : includes.filter((i) => owned.has(i.id));
    let baseCents = kit.priceCents;
    let upgradeReason: string | null = null;
    // Kits owned without paying (an owner's grant) lower nothing.
    const credited = ownedHere.flatMap((i) => {
      const line = paid.get(i.id);
      return line && line.cents > 0 ? [line] : [];
    });
    const credit = totalCents(credited.map((l) => l.cents));
    if (credit > 0) {
      baseCents = upgradePriceCents(kit.priceCents, credit, kit.upgradeFloorCents);
      upgradeReason = `You own ${ownedHere.map((i) => i.title).join(', ')}: the ${formatUsd(centsToDollars(credit))} you paid counts towards this bundle.`;
    }
    return {
      kit,
      includes,
      purchased,
      includedIn: purchased ? null : (bundle?.title ?? null),
      baseCents,
      upgradeReason,
      creditCents: kit.priceCents - baseCents,
      creditedItems: credited.map((l) => l.itemId),
      discountCents: 0,
      toPay: !purchased && !bundle,
    };
  });
  const code = codeText ? await usableCode(deps.db, codeText, user?.id ?? null, deps.timeZone) : null;
  if (code) {
    const eligible = lines.map((l) => l.toPay && (code.kitIds === null || code.kitIds.includes(l.kit.id)));
    if (!eligible.some(Boolean))
      throw new AppError('invalid_data', `The code ${code.code} does not apply to the kits in your cart.`);
    const off = spreadDiscount(
      lines.map((l, i) => ({ baseCents: l.baseCents, eligible: eligible[i]! })),
      code,
    );
    lines.forEach((l, i) => {
      l.discountCents = off[i]!;
    });
  }
  return { lines, code, owned };
}

const finalCents = (line: PricedLine) => line.baseCents - line.discountCents;

/** The answer's lines, sums and code; `order_id` and `email` are the caller's. */
function cartAnswer(lines: PricedLine[], code: DiscountCode | null): Omit<CartResponse, 'order_id' | 'email'> {
  const items: CartItem[] = lines.map((l) => ({
    id: l.kit.id,
    title: l.kit.title,
    spot: l.kit.spot,
    price: centsToDollars(l.purchased ? l.kit.priceCents : finalCents(l)),
    purchased: l.purchased,
    paddle_id: l.kit.paddlePriceId,
    original_price: centsToDollars(l.kit.priceCents),
    upgrade: l.upgradeReason ? { price: centsToDollars(l.baseCents), reason: l.upgradeReason } : null,
    included_in: l.includedIn,
    thumbnail_url: l.kit.details.screenshots[0]?.thumbnail_url ?? null,
  }));
  const discountCents = totalCents(lines.map((l) => l.discountCents));
  return {
    items,
    discount: code
      ? {
          code: code.code,
          amount: centsToDollars(discountCents),
          percent_off: code.percentOff,
          amount_off: code.amountOffCents === null ? null : centsToDollars(code.amountOffCents),
          paddle_discount_id: code.paddleDiscountId,
        }
      : null,
    subtotal: centsToDollars(totalCents(lines.map((l) => l.kit.priceCents))),
    total: centsToDollars(totalCents(lines.filter((l) => l.toPay).map(finalCents))),
  };
}

/**
 * Prices a cart from the catalog (never from the client): unknown ids are dropped, kits the
 * signed-in user owns are marked purchased, a code is checked and applied. Writes nothing.
 */
export async function priceCart(
  deps: CartDeps,
  productIds: number[],
  user: { id: number } | null,
  codeText?: string,
): Promise<CartResponse> {
  const { lines, code } = await readCart(deps, productIds, user, codeText);
  return { ...cartAnswer(lines, code), order_id: null, email: null };
}

/**
 * Prices the cart as `priceCart` does and opens its pending order: one order for exactly the kits
 * still to pay for, created, or reused when the same kits at the same total with the same code are
 * pending already (a reload, a second tab). No order when everything is owned. A limited code is
 * held for the order (`holdCode`), so concurrent checkouts never take more uses than it has; the
 * order opened is the buyer's one hold, superseding their other checkouts' (`holdCheckoutCode`).
 */
export async function checkOutCart(
  deps: CartDeps,
  productIds: number[],
  user: { id: number },
  codeText?: string,
): Promise<CartResponse> {
  const { db } = deps;
  const { lines, code } = await readCart(deps, productIds, user, codeText);
  const email = await findEmail(db, user.id);
  const answer = cartAnswer(lines, code);
  const toPay = lines.filter((l) => l.toPay);
  if (toPay.length === 0) return { ...answer, order_id: null, email };
  const itemsKey = toPay
    .map((l) => l.kit.id)
    .sort((a, b) => a - b)
    .join(',');
  const total = totalCents(toPay.map(finalCents));
  const discountCents = totalCents(toPay.map((l) => l.discountCents));
  const codeId = code && discountCents > 0 ? code.id : null;
  const opened = await db.transaction(async (tx) => {
    if (codeId !== null) await holdCode(tx, codeId, user.id, deps.timeZone);
    const [pending] = await tx
      .select({
        id: orders.id,
        publicId: orders.publicId,
        totalCents: orders.totalCents,
        transactionId: orders.transactionId,
      })
      .from(orders)
      .where(
        and(
          eq(orders.userId, user.id),
          eq(orders.status, 'pending'),
          eq(orders.itemsKey, itemsKey),
          codeId === null ? isNull(orders.discountCodeId) : eq(orders.discountCodeId, codeId),
        ),
      )
      .limit(1);
    if (pending && pending.totalCents === total) {
      await holdCheckoutCode(tx, pending.id, user.id);
      return pending;
    }
    const publicId = `ord_${randomBytes(12).toString('hex')}`;
    const [order] = await tx
      .insert(orders)
      .values({ publicId, userId: user.id, totalCents: total, itemsKey, discountCodeId: codeId, discountCents })
      .returning({ id: orders.id });
    await tx.insert(orderItems).values(
      toPay.map((l) => ({
        orderId: order!.id,
        kitId: l.kit.id,
        title: l.kit.title,
        priceCents: finalCents(l),
        listPriceCents: l.baseCents,
        includes: l.includes.map((k) => k.id),
        paddlePriceId: l.kit.paddlePriceId,
        creditCents: l.creditCents,
        creditedItems: l.creditedItems,
      })),
    );
    await holdCheckoutCode(tx, order!.id, user.id);
    return { id: order!.id, publicId, transactionId: null as string | null };
  });
  const upgraded = toPay.some((l) => l.baseCents !== l.kit.priceCents);
  const transactionId =
    deps.paddle && upgraded ? (opened.transactionId ?? (await openPaddleTransaction(deps, opened, toPay, code))) : null;
  return { ...answer, order_id: opened.publicId, email, transaction_id: transactionId };
}

/**
 * An order with an upgrade price, paid through Paddle: Paddle's catalog has no such price, so the
 * server creates the transaction (the upgraded lines as prices of their own) and Paddle.js opens
 * it by id. The price ids Paddle gave those lines are kept on them, so the webhook's check finds
 * every line; a second checkout of the same order reuses the first transaction.
 */
async function openPaddleTransaction(
  deps: CartDeps,
  order: { id: number; publicId: string },
  toPay: PricedLine[],
  code: DiscountCode | null,
): Promise<string> {
  let created: Awaited<ReturnType<typeof createTransaction>>;
  try {
    created = await createTransaction(deps.paddle!, {
      orderId: order.publicId,
      discountId: code?.paddleDiscountId,
      items: toPay.map((l) =>
        l.baseCents === l.kit.priceCents
          ? { priceId: l.kit.paddlePriceId }
          : {
              name: l.kit.title,
              description: `${l.kit.title}, upgrade price`,
              unitPriceCents: l.baseCents,
              kitId: l.kit.id,
            },
      ),
    });
  } catch (error) {
    if (error instanceof PaddleApiError)
      throw new AppError('conflict', `The payment provider could not prepare this order: ${error.message}`);
    throw error;
  }
  return deps.db.transaction(async (tx) => {
    const [kept] = await tx
      .update(orders)
      .set({ transactionId: created.transactionId })
      .where(and(eq(orders.id, order.id), isNull(orders.transactionId)))
      .returning({ transactionId: orders.transactionId });
    if (!kept) {
      // Another checkout of this order created one first: that one is kept.
      const [current] = await tx.select({ id: orders.transactionId }).from(orders).where(eq(orders.id, order.id));
      return current!.id!;
    }
    for (const [i, line] of toPay.entries())
      if (line.baseCents !== line.kit.priceCents)
        await tx
          .update(orderItems)
          .set({ paddlePriceId: created.priceIds[i]! })
          .where(and(eq(orderItems.orderId, order.id), eq(orderItems.kitId, line.kit.id)));
    return created.transactionId;
  });
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
