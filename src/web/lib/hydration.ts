import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the server renders a page and while the browser hydrates it, true afterwards (and on
 * screens the browser renders itself). A screen that shows something only the browser knows (the
 * local cart, a stored choice) shows the server's version until then, so hydration finds the very
 * HTML it rendered, and React renders again with the browser's state right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
