import { useCallback, useEffect, useState } from 'react';
import { type CartLine, cartProductIds, fetchPricedCart } from '../../lib/cart/priced-cart.ts';
import { cartStore } from '../../lib/cart/use-cart.ts';

export type CartLinesState =
  | { status: 'loading'; items: null }
  | { status: 'error'; items: null }
  | { status: 'ready'; items: CartLine[] };

/**
 * The cart page's lines, priced by the server once per visit (and on "Try again") for the ids in
 * the local cart at that moment. Removing a line changes only the local cart: the page shows the
 * lines still in it, so nothing is fetched again. Ids the server no longer knows are dropped from
 * the local cart too, so the header's count matches the list.
 *
 * A plain effect rather than TanStack Query: a lazy chunk that imports @tanstack/react-query makes
 * Rolldown move React Router out of the entry chunk into a shared chunk.
 */
export function useCartLines(): { state: CartLinesState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  // An empty local cart needs no call: the empty state shows at once.
  const [state, setState] = useState<CartLinesState>(() =>
    cartStore.get().count === 0 ? { status: 'ready', items: [] } : { status: 'loading', items: null },
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger
  useEffect(() => {
    const products = cartProductIds(cartStore.get());
    if (products.length === 0) {
      setState({ status: 'ready', items: [] });
      return;
    }
    let current = true;
    setState({ status: 'loading', items: null });
    fetchPricedCart(products)
      .then(({ items }) => {
        if (!current) return;
        const known = new Set(items.map((item) => item.id));
        for (const id of products) if (!known.has(id)) cartStore.remove(id);
        setState({ status: 'ready', items });
      })
      .catch((error: unknown) => {
        console.warn('Could not load the cart', error);
        if (current) setState({ status: 'error', items: null });
      });
    return () => {
      current = false;
    };
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
