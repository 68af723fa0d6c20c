import { roundDollars } from '../../../common/money.ts';
import { analyticsTax } from '../../lib/cart/totals.ts';
import { browserStorage, type StorageLike } from '../../lib/storage.ts';

/**
 * The checkout's snapshot in sessionStorage 'checkout': `{order_id, total}` of the order being paid
 * (plus its lines for analytics), written when the buyer presses Make Payment and taken once when
 * the provider sends them back with `?status=success`, so a reload sends no second purchase event.
 */
export const CHECKOUT_KEY = 'checkout';

/** A GA4 purchase item. */
export type AnalyticsItem = { item_id: string; item_name: string; price: number; quantity: number };
/** `total` is what is paid, after a discount code; `coupon` is that code. */
export type OrderSnapshot = { order_id: string; total: number; items?: AnalyticsItem[]; coupon?: string };

function parseItem(value: unknown): AnalyticsItem | null {
  const item = value as Partial<AnalyticsItem> | null;
  if (typeof item?.item_id !== 'string' || typeof item.item_name !== 'string') return null;
  if (typeof item.price !== 'number' || !Number.isFinite(item.price)) return null;
  return { item_id: item.item_id, item_name: item.item_name, price: item.price, quantity: 1 };
}

/** The stored snapshot, or null when there is none or it is not `{order_id: string, total: number}`. */
export function parseSnapshot(raw: string | null): OrderSnapshot | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<OrderSnapshot> | null;
    const total = Number(value?.total);
    if (typeof value?.order_id !== 'string' || !value.order_id || !Number.isFinite(total)) return null;
    const snapshot: OrderSnapshot = { order_id: value.order_id, total: roundDollars(total) };
    if (typeof value.coupon === 'string' && value.coupon) snapshot.coupon = value.coupon;
    if (Array.isArray(value.items)) {
      snapshot.items = value.items.map(parseItem).filter((item): item is AnalyticsItem => item !== null);
    }
    return snapshot;
  } catch {
    return null;
  }
}

export function saveSnapshot(snapshot: OrderSnapshot, storage: StorageLike = browserStorage('sessionStorage')): void {
  try {
    storage.setItem(CHECKOUT_KEY, JSON.stringify(snapshot));
  } catch {
    // storage refused: the payment still goes through; only the thank-you screen is skipped
  }
}

export function readSnapshot(storage: StorageLike = browserStorage('sessionStorage')): OrderSnapshot | null {
  try {
    return parseSnapshot(storage.getItem(CHECKOUT_KEY));
  } catch {
    return null;
  }
}

/** Reads the snapshot and removes it: the second call finds nothing. */
export function takeSnapshot(storage: StorageLike = browserStorage('sessionStorage')): OrderSnapshot | null {
  const snapshot = readSnapshot(storage);
  try {
    storage.removeItem(CHECKOUT_KEY);
  } catch {
    // nothing to remove
  }
  return snapshot;
}

/** gtag('event', 'purchase', …)'s parameters: numbers as numbers, tax half the total. */
export function purchaseEventParams(snapshot: OrderSnapshot) {
  return {
    transaction_id: snapshot.order_id,
    value: snapshot.total,
    currency: 'USD',
    tax: analyticsTax(snapshot.total),
    items: snapshot.items ?? [],
    ...(snapshot.coupon ? { coupon: snapshot.coupon } : {}),
  };
}
