import { useSyncExternalStore } from 'react';
import { DISCOUNT_CODE_PATTERN } from '../../../common/constants.ts';
import { browserStorage, type StorageLike } from '../storage.ts';

/**
 * The discount code the buyer applied, in localStorage 'discountCode' beside the cart (whose
 * `{count, items}` shape is fixed): set by the cart's Apply and by `?code=` on any store link,
 * sent with every pricing of the cart, dropped when the server refuses it.
 */
export const DISCOUNT_CODE_KEY = 'discountCode';

export function createDiscountCodeStore(storage: StorageLike) {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    get(): string | null {
      const value = storage.getItem(DISCOUNT_CODE_KEY);
      return value && DISCOUNT_CODE_PATTERN.test(value) ? value : null;
    },
    set(code: string): void {
      if (!DISCOUNT_CODE_PATTERN.test(code)) return;
      storage.setItem(DISCOUNT_CODE_KEY, code);
      notify();
    },
    clear(): void {
      storage.removeItem(DISCOUNT_CODE_KEY);
      notify();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify,
  };
}

export const discountCodeStore = createDiscountCodeStore(browserStorage('localStorage'));
if (typeof window !== 'undefined')
  window.addEventListener('storage', (event) => {
    if (event.key === DISCOUNT_CODE_KEY || event.key === null) discountCodeStore.notify();
  });

export function useDiscountCode(): string | null {
  return useSyncExternalStore(discountCodeStore.subscribe, discountCodeStore.get, () => null);
}

/** `?code=SPRING` on a store link (a shareable sale link): remembers the code for the cart. */
export function rememberCodeFromLink(search: string): void {
  const code = new URLSearchParams(search).get('code')?.trim();
  if (code && DISCOUNT_CODE_PATTERN.test(code)) discountCodeStore.set(code);
}
