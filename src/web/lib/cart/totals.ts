import { roundDollars } from '../../../common/money.ts';

/** Shown on the cart and checkout: the payment provider is the merchant of record for taxes. */
export const TAX_NOTE = 'Taxes, if any, are calculated and collected by our payment processor at checkout.';

type Priced = { price: number };
/** A server-priced line: `price` is what is paid; the optional fields come with codes and bundles. */
type PricedLine = {
  price: number;
  purchased: boolean;
  original_price?: number;
  upgrade?: { price: number } | null;
  included_in?: string | null;
};

/** Left out of the order: owned already, or included in a bundle in the same cart. */
const leftOut = (item: PricedLine) => item.purchased || Boolean(item.included_in);
const original = (item: PricedLine) => item.original_price ?? item.price;

/** The sum of the prices, rounded to 2 decimals. */
export function cartSubtotal(items: readonly Priced[]): number {
  return roundDollars(items.reduce((sum, item) => sum + item.price, 0));
}

/** What the buyer pays: the items not purchased before (an already purchased kit is excluded). */
export function checkoutTotal(items: readonly PricedLine[]): number {
  return cartSubtotal(items.filter((item) => !leftOut(item)));
}

/**
 * The cart's sums from its lines as the server priced them: the original prices, what is left out
 * (owned, or in a bundle of the cart), the upgrade credit of bundles, the code's discount, and the
 * total, which is always subtotal - excluded - upgrade - discount.
 */
export function cartBreakdown(items: readonly PricedLine[]) {
  const sum = (list: readonly PricedLine[], pick: (item: PricedLine) => number) =>
    roundDollars(list.reduce((total, item) => total + pick(item), 0));
  const toPay = items.filter((item) => !leftOut(item));
  return {
    subtotal: sum(items, original),
    excluded: sum(items.filter(leftOut), original),
    upgrade: sum(toPay, (item) => (item.upgrade ? original(item) - item.upgrade.price : 0)),
    discount: sum(toPay, (item) => (item.upgrade?.price ?? original(item)) - item.price),
    total: sum(toPay, (item) => item.price),
  };
}

/** The part of the subtotal the order leaves out because those kits were purchased before. */
export function alreadyPurchasedAmount(items: readonly PricedLine[]): number {
  return cartSubtotal(items.filter((item) => item.purchased));
}

/** The price a line shows at checkout: 0 for a kit the buyer already owns. */
export function checkoutLinePrice(item: PricedLine): number {
  return leftOut(item) ? 0 : item.price;
}

/** The purchase event's tax value: half the total, rounded to 2 decimals. */
export function analyticsTax(total: number): number {
  return roundDollars(total / 2);
}

/** The payment frame's line items: quantity 1 of each kit not purchased before. */
export function paymentItems(
  items: readonly (PricedLine & { paddle_id: string })[],
): { priceId: string; quantity: 1 }[] {
  return items.filter((item) => !leftOut(item)).map((item) => ({ priceId: item.paddle_id, quantity: 1 }));
}
