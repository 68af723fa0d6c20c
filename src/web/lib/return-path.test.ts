import { describe, expect, it } from 'vitest';
import {
  clearReturnPath,
  clearReturnPathIfAt,
  getReturnPath,
  normaliseReturnPath,
  RETURN_PATH_KEY,
  resolveReturnPath,
  setReturnPath,
  takeReturnPath,
} from './return-path.ts';
import { memoryStorage, refusingStorage as refusing } from './storage-doubles.ts';

describe('returnPath', () => {
  it("stores a path under 'returnPath' without a leading slash", () => {
    const { storage, data } = memoryStorage();
    setReturnPath('checkout', storage);
    expect(data.get(RETURN_PATH_KEY)).toBe('checkout');
    setReturnPath('/product/next-kit', storage);
    expect(data.get(RETURN_PATH_KEY)).toBe('product/next-kit');
    expect(getReturnPath(storage)).toBe('product/next-kit');
  });

  it('reads nothing when nothing is stored', () => {
    expect(getReturnPath(memoryStorage().storage)).toBeNull();
  });

  it("resolves the navigation target to '/' + the stored path, or the fallback", () => {
    expect(resolveReturnPath('cart', '/user-panel')).toBe('/cart');
    expect(resolveReturnPath('product/x', '/')).toBe('/product/x');
    expect(resolveReturnPath('checkout?status=success', '/')).toBe('/checkout?status=success');
    expect(resolveReturnPath(null, '/user-panel')).toBe('/user-panel');
    expect(resolveReturnPath('', '/')).toBe('/');
  });

  it('takes the stored path once: the target comes back and the stored value is cleared', () => {
    const { storage, data } = memoryStorage({ [RETURN_PATH_KEY]: 'checkout' });
    expect(takeReturnPath('/user-panel', storage)).toBe('/checkout');
    expect(data.has(RETURN_PATH_KEY)).toBe(false);
    expect(takeReturnPath('/user-panel', storage)).toBe('/user-panel');
  });

  it.each([
    ['a protocol-relative URL', '//evil.example/x'],
    ['an absolute URL', 'https://evil.example'],
    ['a doubled slash inside', 'product//x'],
    ['a backslash', '\\evil.example'],
    ['whitespace inside', 'product/x y'],
    ['script', 'javascript:alert(1)'],
    ['an over-long value', 'a'.repeat(301)],
  ])('ignores %s in storage and falls back', (_label, value) => {
    const { storage, data } = memoryStorage({ [RETURN_PATH_KEY]: value });
    expect(getReturnPath(storage)).toBeNull();
    expect(takeReturnPath('/user-panel', storage)).toBe('/user-panel');
    expect(data.has(RETURN_PATH_KEY)).toBe(false);
  });

  it('refuses to store an unsafe path', () => {
    const { storage, data } = memoryStorage();
    setReturnPath('//evil.example', storage);
    setReturnPath('', storage);
    expect(data.size).toBe(0);
    expect(normaliseReturnPath('///evil.example')).toBeNull();
  });

  it("visiting cart clears a return path equal to 'cart' and nothing else", () => {
    const { storage, data } = memoryStorage({ [RETURN_PATH_KEY]: 'cart' });
    clearReturnPathIfAt('checkout', storage);
    expect(data.get(RETURN_PATH_KEY)).toBe('cart');
    clearReturnPathIfAt('/cart', storage);
    expect(data.has(RETURN_PATH_KEY)).toBe(false);
  });

  it("visiting checkout clears a return path equal to 'checkout' and nothing else", () => {
    const { storage, data } = memoryStorage({ [RETURN_PATH_KEY]: 'checkout' });
    clearReturnPathIfAt('cart', storage);
    expect(data.get(RETURN_PATH_KEY)).toBe('checkout');
    clearReturnPathIfAt('checkout', storage);
    expect(data.has(RETURN_PATH_KEY)).toBe(false);
  });

  it('clears on request', () => {
    const { storage, data } = memoryStorage({ [RETURN_PATH_KEY]: 'user-panel' });
    clearReturnPath(storage);
    expect(data.size).toBe(0);
  });

  it('treats a storage that refuses access as empty', () => {
    expect(getReturnPath(refusing)).toBeNull();
    expect(() => setReturnPath('cart', refusing)).not.toThrow();
    expect(() => clearReturnPathIfAt('cart', refusing)).not.toThrow();
    expect(takeReturnPath('/', refusing)).toBe('/');
  });

  it('works without any browser storage at all', () => {
    // Vitest runs in Node: the default storage is absent here and must not throw.
    expect(() => getReturnPath()).not.toThrow();
  });
});
