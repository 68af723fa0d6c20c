import { useState } from 'react';
import type { CartResponse } from '../../../common/schemas/orders.ts';
import { useDiscountCode } from '../../lib/cart/discount-code.ts';
import { cartProductIds, fetchCartWithCode } from '../../lib/cart/priced-cart.ts';
import { cartStore, useCart } from '../../lib/cart/use-cart.ts';
import { useFreshQuery } from '../../lib/fresh-query.ts';
import { useHydrated } from '../../lib/hydration.ts';

export type CartLinesState =
  | { status: 'loading'; cart: null }
  | { status: 'error'; cart: null }
  | { status: 'ready'; cart: CartResponse; codeError: string | null };

const EMPTY: CartResponse = { items: [], order_id: null, email: null };

/** Prices the ids with the code; ids the server no longer knows are dropped from the local cart too. */
async function priceLines(products: number[], code: string | null) {
  try {
    const priced = await fetchCartWithCode({ products }, code);
    const known = new Set(priced.cart.items.map((item) => item.id));
    for (const id of products) if (!known.has(id)) cartStore.remove(id);
    return priced;
  } catch (error) {
    console.warn('Could not load the cart', error);
    throw error;
  }
}

/**
 * The cart page's lines, priced by the server once per visit (and on "Try again") for the ids in
 * the local cart at that moment. Removing a line changes only the local cart: the page shows the
 * lines still in it, so nothing is fetched again, unless the prices depend on the other lines (a
 * code spread over them, a bundle and its kits): then the cart is priced again. Ids the server no
 * longer knows are dropped from the local cart too, so the header's count matches the list.
 */
export function useCartLines(): { state: CartLinesState; retry: () => void } {
  const cart = useCart();
  const code = useDiscountCode();
  const [visitProducts, setProducts] = useState(() => cartProductIds(cartStore.get()));
  const [linked, setLinked] = useState(false);
  const products = code || linked ? cartProductIds(cart) : visitProducts;
  const { query, retry } = useFreshQuery(
    ['cart', products, code],
    async () => {
      const priced = await priceLines(products, code);
      if (priced.cart.items.some((i) => i.included_in || i.upgrade)) setLinked(true);
      return priced;
    },
    products.length > 0,
  );
  // The local cart is the browser's: the server's page (and its hydration) show it loading.
  const hydrated = useHydrated();
  const state: CartLinesState = !hydrated
    ? { status: 'loading', cart: null }
    : products.length === 0
      ? { status: 'ready', cart: EMPTY, codeError: null } // an empty local cart needs no call
      : query.isSuccess
        ? { status: 'ready', ...query.data }
        : query.isError
          ? { status: 'error', cart: null }
          : { status: 'loading', cart: null };
  return {
    state,
    retry: () => {
      setProducts(cartProductIds(cartStore.get()));
      retry();
    },
  };
}
