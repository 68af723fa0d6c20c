import { roundDollars } from '../../../common/money.ts';

/** Shown on the cart and checkout: the payment provider is the merchant of record for taxes. */
export const TAX_NOTE = 'Taxes, if any, are calculated and collected by our payment processor at checkout.';

type Priced = { price: number };
type PricedLine = { price: number; purchased: boolean };

/** The sum of the prices, rounded to 2 decimals. */
export function cartSubtotal(items: readonly Priced[]): number {
  return roundDollars(items.reduce((sum, item) => sum + item.price, 0));
}

/** What the buyer pays: the items not purchased before (an already purchased kit is excluded). */
export function checkoutTotal(items: readonly PricedLine[]): number {
  return cartSubtotal(items.filter((item) => !item.purchased));
}

/** The part of the subtotal the order leaves out because those kits were purchased before. */
export function alreadyPurchasedAmount(items: readonly PricedLine[]): number {
  return cartSubtotal(items.filter((item) => item.purchased));
}

/** The price a line shows at checkout: 0 for a kit the buyer already owns. */
export function checkoutLinePrice(item: PricedLine): number {
  return item.purchased ? 0 : item.price;
}

/** The purchase event's tax value: half the total, rounded to 2 decimals. */
export function analyticsTax(total: number): number {
  return roundDollars(total / 2);
}

/** The payment frame's line items: quantity 1 of each kit not purchased before. */
export function paymentItems(
  items: readonly (PricedLine & { paddle_id: string })[],
): { priceId: string; quantity: 1 }[] {
  return items.filter((item) => !item.purchased).map((item) => ({ priceId: item.paddle_id, quantity: 1 }));
}
