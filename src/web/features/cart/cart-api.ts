import { useState } from 'react';
import type { CartItem } from '../../../common/schemas/orders.ts';
import { cartProductIds, fetchPricedCart } from '../../lib/cart/priced-cart.ts';
import { cartStore } from '../../lib/cart/use-cart.ts';
import { useFreshQuery } from '../../lib/fresh-query.ts';

export type CartLinesState =
  | { status: 'loading'; items: null }
  | { status: 'error'; items: null }
  | { status: 'ready'; items: CartItem[] };

/** Prices the ids; ids the server no longer knows are dropped from the local cart too. */
async function priceLines(products: number[]): Promise<CartItem[]> {
  try {
    const { items } = await fetchPricedCart({ products });
    const known = new Set(items.map((item) => item.id));
    for (const id of products) if (!known.has(id)) cartStore.remove(id);
    return items;
  } catch (error) {
    console.warn('Could not load the cart', error);
    throw error;
  }
}

/**
 * The cart page's lines, priced by the server once per visit (and on "Try again") for the ids in
 * the local cart at that moment. Removing a line changes only the local cart: the page shows the
 * lines still in it, so nothing is fetched again. Ids the server no longer knows are dropped from
 * the local cart too, so the header's count matches the list.
 */
export function useCartLines(): { state: CartLinesState; retry: () => void } {
  const [products, setProducts] = useState(() => cartProductIds(cartStore.get()));
  const { query, retry } = useFreshQuery(['cart', products], () => priceLines(products), products.length > 0);
  const state: CartLinesState =
    products.length === 0
      ? { status: 'ready', items: [] } // an empty local cart needs no call
      : query.isSuccess
        ? { status: 'ready', items: query.data }
        : query.isError
          ? { status: 'error', items: null }
          : { status: 'loading', items: null };
  return {
    state,
    retry: () => {
      setProducts(cartProductIds(cartStore.get()));
      retry();
    },
  };
}
