/** What the helpers that keep something in browser storage need of it (tests pass their own). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const noStorage: StorageLike = { getItem: () => null, setItem: () => {}, removeItem: () => {} };

/**
 * The browser's localStorage or sessionStorage; a storage that does nothing when the browser
 * refuses access (storage disabled in its settings), so a refusal reads as empty.
 * Opened at its first use, not when a module that keeps something there is loaded: the page's
 * first touch of its storage waits for the browser to open it, which is no part of starting the app.
 */
export function browserStorage(kind: 'localStorage' | 'sessionStorage'): StorageLike {
  // On the server (rendering a page) there is no visitor's storage, whatever the runtime offers.
  if (typeof window === 'undefined') return noStorage;
  let storage: StorageLike | undefined;
  const open = (): StorageLike => {
    if (!storage) {
      try {
        storage = globalThis[kind] ?? noStorage;
      } catch {
        storage = noStorage;
      }
    }
    return storage;
  };
  return {
    getItem: (key) => open().getItem(key),
    setItem: (key, value) => open().setItem(key, value),
    removeItem: (key) => open().removeItem(key),
  };
}
