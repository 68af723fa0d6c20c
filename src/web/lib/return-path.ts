import { browserStorage, type StorageLike } from './storage.ts';

/**
 * `returnPath` in localStorage: where to go after signing in or up. It holds a route path relative
 * to the base without a leading slash (`checkout`, `cart`, `product/x`); the navigation target is
 * '/' + that value. Every helper takes the storage as its last argument (tests pass their own);
 * the browser's localStorage is used otherwise, and a storage that refuses access counts as empty.
 */
export const RETURN_PATH_KEY = 'returnPath';

const MAX_LENGTH = 300;
// The same form the server accepts (ReturnPathSchema): relative, no '//', URL-safe characters only.
const SAFE = /^(?!\/)(?!.*\/\/)[A-Za-z0-9\-._~/?=&%#]*$/;

/** Strips one leading slash; null when the value is empty or not a safe relative route path. */
export function normaliseReturnPath(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const path = value.trim().replace(/^\/(?!\/)/, '');
  if (!path || path.length > MAX_LENGTH || !SAFE.test(path)) return null;
  return path;
}

/** The stored return path, or null when there is none (or it is not a safe relative path). */
export function getReturnPath(storage: StorageLike = browserStorage('localStorage')): string | null {
  try {
    return normaliseReturnPath(storage.getItem(RETURN_PATH_KEY));
  } catch {
    return null;
  }
}

/** Remembers where to return after signing in ('checkout', 'user-panel', 'product/x'). */
export function setReturnPath(path: string, storage: StorageLike = browserStorage('localStorage')): void {
  const value = normaliseReturnPath(path);
  if (!value) return;
  try {
    storage.setItem(RETURN_PATH_KEY, value);
  } catch {
    // storage full or refused: the visitor simply lands on the default screen
  }
}

export function clearReturnPath(storage: StorageLike = browserStorage('localStorage')): void {
  try {
    storage.removeItem(RETURN_PATH_KEY);
  } catch {
    // nothing to clear
  }
}

/** The navigation target for a stored return path: '/' + the path, or the fallback without one. */
export function resolveReturnPath(stored: string | null, fallback: string): string {
  const path = normaliseReturnPath(stored);
  return path ? `/${path}` : fallback;
}

/** Where to go now (the stored return path or the fallback); the stored path is cleared. */
export function takeReturnPath(fallback: string, storage: StorageLike = browserStorage('localStorage')): string {
  const target = resolveReturnPath(getReturnPath(storage), fallback);
  clearReturnPath(storage);
  return target;
}

/**
 * Visiting a screen clears a return path that points at it: the cart clears 'cart', the checkout
 * clears 'checkout' (pass the route path with or without its leading slash).
 */
export function clearReturnPathIfAt(path: string, storage: StorageLike = browserStorage('localStorage')): void {
  const here = normaliseReturnPath(path);
  if (here && getReturnPath(storage) === here) clearReturnPath(storage);
}
