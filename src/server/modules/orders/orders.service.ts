import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { centsToDollars, formatUsd } from '../../../common/money.ts';
import type { CartItem, CartResponse } from '../../../common/schemas/orders.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders } from '../../db/schema/orders.ts';
import { AppError } from '../../http/errors.ts';
import { createTransaction, PaddleApiError } from '../../integrations/payments/paddle-api.ts';
import { findEmail } from '../accounts/accounts.service.ts';
import type { Catalog, Product } from '../catalog/catalog.service.ts';
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
type CartKit = Product['kit'];

/** Sum of integer cents: the money rule the totals follow. */
export const totalCents = (prices: number[]) => prices.reduce((sum, cents) => sum + cents, 0);

/** One priced line, in cents: the kit's price, its upgrade price, what a code takes off, what is paid. */
type PricedLine = {
  /** What is sold: the kit in one licence tier (Solo is the kit itself). */
  product: Product;
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

/** Of these licence tiers, those the buyer paid for and kept (a paid line, not refunded). */
async function paidLicenceIds(db: Database, userId: number, licenceIds: number[]): Promise<Set<number>> {
  if (licenceIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ licenceId: orderItems.licenceId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(paidLinesOf(userId), inArray(orderItems.licenceId, licenceIds)));
  return new Set(rows.map((r) => r.licenceId!));
}

/**
 * The cart priced from the catalog (never from the client): unknown ids dropped, kits the user owns
 * marked purchased, a kit a bundle in the cart includes left out, a bundle whose kits the user owns
 * in part at its upgrade price, a licence tier of a kit whose Solo licence the user paid for at its
 * upgrade price (Solo left out when a tier of the same kit is in the cart), and the code (if any)
 * taken off the lines it applies to.
 */
async function readCart(deps: CartDeps, productIds: number[], user: { id: number } | null, codeText?: string) {
  const snapshot = await deps.catalog.snapshot();
  const products = [...new Set(productIds)].map((id) => snapshot.products.get(id)).filter((p) => p !== undefined);
  const includesOf = (kit: CartKit): CartKit[] =>
    kit.includes.flatMap((sef) => {
      const included = snapshot.bySef.get(sef)?.kit;
      return included && included.id !== kit.id ? [included] : [];
    });
  const kits = products.filter((p) => p.licence === null).map((p) => p.kit);
  const tiers = products.filter((p) => p.licence !== null);
  const everyKit = [...kits.flatMap((k) => [k, ...includesOf(k)]), ...tiers.map((t) => t.kit)].map((k) => k.id);
  const owned = user ? await ownedKitIds(deps.db, user.id, everyKit) : new Set<number>();
  const ownedTiers = user
    ? await paidLicenceIds(
        deps.db,
        user.id,
        tiers.map((t) => t.id),
      )
    : new Set<number>();
  const ownedIncluded = kits.flatMap((k) => (owned.has(k.id) ? [] : includesOf(k).filter((i) => owned.has(i.id))));
  // A tier's upgrade counts what the buyer paid for its kit.
  const ownedSolo = tiers.filter((t) => !ownedTiers.has(t.id) && owned.has(t.kit.id)).map((t) => t.kit);
  const paid = user
    ? await paidCentsByKit(
        deps.db,
        user.id,
        [...ownedIncluded, ...ownedSolo].map((k) => k.id),
      )
    : new Map<number, { itemId: number; cents: number }>();
  const creditOf = (ownedHere: CartKit[]) => {
    // Kits owned without paying (an owner's grant, a seat of another's team) lower nothing.
    const credited = ownedHere.flatMap((i) => {
      const line = paid.get(i.id);
      return line && line.cents > 0 ? [line] : [];
    });
    return { credited, credit: totalCents(credited.map((l) => l.cents)) };
  };
  const lines: PricedLine[] = products.map((product) => {
    const { kit, licence } = product;
    const includes = licence ? [] : includesOf(kit);
    const purchased = licence ? ownedTiers.has(licence.id) : owned.has(kit.id);
    const bundle = licence
      ? undefined
      : kits.find((b) => b !== kit && !owned.has(b.id) && includesOf(b).some((i) => i.id === kit.id));
    const tier = licence || purchased ? undefined : tiers.find((t) => t.kit.id === kit.id && !ownedTiers.has(t.id));
    const ownedHere = purchased
      ? []
      : licence
        ? owned.has(kit.id)
          ? [kit]
          : []
        : includes.filter((i) => owned.has(i.id));
    let baseCents = product.priceCents;
    let upgradeReason: string | null = null;
    const { credited, credit } = creditOf(ownedHere);
    if (credit > 0) {
      baseCents = upgradePriceCents(product.priceCents, credit, kit.upgradeFloorCents);
      const paidText = formatUsd(centsToDollars(credit));
      upgradeReason = licence
        ? `You own ${kit.title}: the ${paidText} you paid counts towards the ${licence.name} licence.`
        : `You own ${ownedHere.map((i) => i.title).join(', ')}: the ${paidText} you paid counts towards this bundle.`;
    }
    const coveredBy = bundle?.title ?? tier?.title ?? null;
    return {
      product,
      kit,
      includes,
      purchased,
      includedIn: purchased ? null : coveredBy,
      baseCents,
      upgradeReason,
      creditCents: product.priceCents - baseCents,
      creditedItems: credited.map((l) => l.itemId),
      discountCents: 0,
      toPay: !purchased && coveredBy === null,
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
    id: l.product.id,
    title: l.product.title,
    spot: l.kit.spot,
    price: centsToDollars(l.purchased ? l.product.priceCents : finalCents(l)),
    purchased: l.purchased,
    paddle_id: l.product.paddlePriceId,
    original_price: centsToDollars(l.product.priceCents),
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
    subtotal: centsToDollars(totalCents(lines.map((l) => l.product.priceCents))),
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
    .map((l) => l.product.id)
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
        title: l.product.title,
        priceCents: finalCents(l),
        listPriceCents: l.baseCents,
        includes: l.includes.map((k) => k.id),
        paddlePriceId: l.product.paddlePriceId,
        licenceId: l.product.licence?.id ?? null,
        seats: l.product.seats,
        creditCents: l.creditCents,
        creditedItems: l.creditedItems,
      })),
    );
    await holdCheckoutCode(tx, order!.id, user.id);
    return { id: order!.id, publicId, transactionId: null as string | null };
  });
  const upgraded = toPay.some((l) => l.baseCents !== l.product.priceCents);
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
        l.baseCents === l.product.priceCents
          ? { priceId: l.product.paddlePriceId }
          : {
              name: l.product.title,
              description: `${l.product.title}, upgrade price`,
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
      if (line.baseCents !== line.product.priceCents)
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
