import { describe, expect, it } from 'vitest';
import { CART_KEY, createCartStore, parseCart } from './cart-store.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe('cart store', () => {
  it('adds a kit once, counting distinct items', () => {
    const storage = memoryStorage();
    const cart = createCartStore(storage);
    expect(cart.add(3)).toBe(true);
    expect(cart.add(7)).toBe(true);
    expect(cart.add(3)).toBe(false);
    expect(JSON.parse(storage.data.get(CART_KEY)!)).toEqual({ count: 2, items: { 3: 3, 7: 7 } });
  });

  it('removes a kit and updates the count', () => {
    const cart = createCartStore(memoryStorage({ [CART_KEY]: JSON.stringify({ count: 2, items: { 3: 3, 7: 7 } }) }));
    cart.remove(3);
    expect(cart.get()).toEqual({ count: 1, items: { 7: 7 } });
  });

  it('notifies subscribers and returns a stable snapshot between changes', () => {
    const cart = createCartStore(memoryStorage());
    let calls = 0;
    cart.subscribe(() => calls++);
    const before = cart.get();
    expect(cart.get()).toBe(before);
    cart.add(1);
    expect(calls).toBe(1);
    expect(cart.get()).not.toBe(before);
  });

  it.each([
    ['garbage', '{not json', { count: 0, items: {} }],
    ['wrong shape', '[1,2]', { count: 0, items: {} }],
    ['a wrong count', '{"count":9,"items":{"4":4}}', { count: 1, items: { 4: 4 } }],
    ['bad ids', '{"count":2,"items":{"4":4,"x":"x","5":6,"-1":-1}}', { count: 1, items: { 4: 4 } }],
  ])('repairs %s in storage', (_label, raw, expected) => {
    expect(parseCart(raw)).toEqual(expected);
  });
});
