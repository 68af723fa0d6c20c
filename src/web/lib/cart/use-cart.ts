import { useSyncExternalStore } from 'react';
import { useToast } from '../../components/toasts.tsx';
import { browserStorage } from '../storage.ts';
import { CART_KEY, createCartStore, type LocalCart } from './cart-store.ts';

// A browser that refuses storage gets a cart that stays empty rather than a page that fails to start.
export const cartStore = createCartStore(browserStorage('localStorage'));
window.addEventListener('storage', (event) => {
  if (event.key === CART_KEY || event.key === null) cartStore.notify();
});

export function useCart(): LocalCart {
  return useSyncExternalStore(cartStore.subscribe, cartStore.get);
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
