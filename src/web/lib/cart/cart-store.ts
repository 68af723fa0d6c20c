/** The local cart in browser storage 'cart': `{count, items: {id: id}}`, count = distinct items. */
export type LocalCart = { count: number; items: Record<string, number> };

export const CART_KEY = 'cart';
const EMPTY: LocalCart = { count: 0, items: {} };

export function parseCart(raw: string | null): LocalCart {
  if (!raw) return EMPTY;
  try {
    const value = JSON.parse(raw) as Partial<LocalCart>;
    const items: Record<string, number> = {};
    for (const [key, id] of Object.entries(value?.items ?? {})) {
      const n = Number(id);
      if (Number.isInteger(n) && n > 0 && String(n) === key) items[key] = n;
    }
    return { count: Object.keys(items).length, items };
  } catch {
    return EMPTY;
  }
}

export function createCartStore(storage: Pick<Storage, 'getItem' | 'setItem'>) {
  const listeners = new Set<() => void>();
  let cached: { raw: string | null; cart: LocalCart } = { raw: null, cart: EMPTY };
  const read = (): LocalCart => {
    const raw = storage.getItem(CART_KEY);
    if (raw !== cached.raw) cached = { raw, cart: parseCart(raw) };
    return cached.cart;
  };
  const write = (cart: LocalCart) => {
    storage.setItem(CART_KEY, JSON.stringify(cart));
    for (const listener of listeners) listener();
  };
  return {
    get: read,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Adds a kit; false when it was already in the cart (nothing changes then). */
    add(id: number): boolean {
      const cart = read();
      if (cart.items[id] !== undefined) return false;
      const items = { ...cart.items, [id]: id };
      write({ count: Object.keys(items).length, items });
      return true;
    },
    remove(id: number): void {
      const { [id]: _removed, ...items } = read().items;
      write({ count: Object.keys(items).length, items });
    },
    clear(): void {
      write(EMPTY);
    },
    /** Another tab changed the cart. */
    notify(): void {
      for (const listener of listeners) listener();
    },
  };
}
