/** What the helpers that keep something in browser storage need of it (tests pass their own). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const noStorage: StorageLike = { getItem: () => null, setItem: () => {}, removeItem: () => {} };

/**
 * The browser's localStorage or sessionStorage; a storage that does nothing when the browser
 * refuses access (storage disabled in its settings), so a refusal reads as empty.
 */
export function browserStorage(kind: 'localStorage' | 'sessionStorage'): StorageLike {
  // On the server (rendering a page) there is no visitor's storage, whatever the runtime offers.
  if (typeof window === 'undefined') return noStorage;
  try {
    return globalThis[kind] ?? noStorage;
  } catch {
    return noStorage;
  }
}
