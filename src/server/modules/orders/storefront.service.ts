import { countDistinct, inArray } from 'drizzle-orm';
import { centsToDollars } from '../../../common/money.ts';
import type { CodeOffer, ShopStats } from '../../../common/schemas/orders.ts';
import { lastDayIn } from '../../../common/shop-days.ts';
import type { Database } from '../../db/open.ts';
import { orders } from '../../db/schema/orders.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import { usableCode } from './discounts.service.ts';
import { spreadDiscount } from './pricing.ts';

/** What the storefront shows beside the kits: figures from the shop's records and a code's offer. */

/** Buyers with a paid order (paid in full or refunded in part); one index-only pass over the orders. */
export async function countBuyers(db: Pick<Database, 'select'>): Promise<number> {
  const [row] = await db
    .select({ buyers: countDistinct(orders.userId) })
    .from(orders)
    .where(inArray(orders.status, ['paid', 'partially_refunded']));
  return row?.buyers ?? 0;
}

/**
 * The shop's figures, counted at most once per `ttlMs`: the home page is asked for far more often
 * than orders are paid, and a figure a minute old says the same. Concurrent askers share one count.
 */
export function createShopStats(db: Pick<Database, 'select'>, ttlMs = 60_000, now = () => Date.now()) {
  let kept: { at: number; stats: Promise<ShopStats> } | null = null;
  return {
    /** When the figures counted last are counted again (now, before the first count). */
    keptUntil(): number {
      return kept ? kept.at + ttlMs : now();
    },
    get(): Promise<ShopStats> {
      if (kept && now() - kept.at < ttlMs) return kept.stats;
      const stats = countBuyers(db).then((buyers) => ({ buyers }));
      const entry = { at: now(), stats };
      kept = entry;
      // A failed count is not kept: the next asker counts again.
      stats.catch(() => {
        if (kept === entry) kept = null;
      });
      return stats;
    },
  };
}
export type ShopStatsSource = ReturnType<typeof createShopStats>;

/**
 * A code usable now by this visitor (the cart's own check: unknown, paused, expired, used up or used
 * by them is the same 4xx the cart answers) and each active kit it applies to, priced as the cart
 * prices that kit alone with it. Writes nothing.
 */
export async function codeOffer(
  deps: { db: Database; catalog: Catalog; timeZone: string },
  text: string,
  userId: number | null,
): Promise<CodeOffer> {
  const code = await usableCode(deps.db, text, userId, deps.timeZone);
  const { list, byId } = await deps.catalog.snapshot();
  const prices = list.flatMap((summary) => {
    const kit = byId.get(summary.id)?.kit;
    if (!kit || (code.kitIds !== null && !code.kitIds.includes(kit.id))) return [];
    const [off = 0] = spreadDiscount([{ baseCents: kit.priceCents, eligible: true }], code);
    return [
      {
        id: kit.id,
        title: kit.title,
        price: centsToDollars(kit.priceCents - off),
        original_price: centsToDollars(kit.priceCents),
      },
    ];
  });
  return {
    code: code.code,
    percent_off: code.percentOff,
    amount_off: code.amountOffCents === null ? null : centsToDollars(code.amountOffCents),
    kit_ids: code.kitIds,
    prices,
    last_day: code.endsAt ? lastDayIn(code.endsAt, deps.timeZone) : null,
  };
}
