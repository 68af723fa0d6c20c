import { useSyncExternalStore } from 'react';
import { useToast } from '../../components/toasts.tsx';
import { browserStorage } from '../storage.ts';
import { CART_KEY, createCartStore, type LocalCart } from './cart-store.ts';

// A browser that refuses storage gets a cart that stays empty rather than a page that fails to start.
export const cartStore = createCartStore(browserStorage('localStorage'));
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === CART_KEY || event.key === null) cartStore.notify();
  });
}

/** The cart before the browser has read its storage: the server's page, and the page while it hydrates. */
export const UNREAD_CART: LocalCart = Object.freeze({ count: 0, items: {} });

/** The local cart; `UNREAD_CART` while the server renders and the browser hydrates its page. */
export function useCart(): LocalCart {
  return useSyncExternalStore(cartStore.subscribe, cartStore.get, () => UNREAD_CART);
}

/** Adds a kit to the local cart with the spec's toasts; true when it was added. */
export function useAddToCart(): (kitId: number) => boolean {
  const toast = useToast();
  return (kitId) => {
    const added = cartStore.add(kitId);
    if (added) toast({ title: 'Item Added To Cart', body: 'Item added to cart successfully' });
    else toast({ title: 'Item Exists', body: 'Item already exists in your cart', variant: 'warning' });
    return added;
  };
}
