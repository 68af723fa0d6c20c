/**
 * Calls `forget` when the signed-in user signs out (or another account takes its place), so what
 * the signed-in pages fetched (purchases, the owner console's customers and orders) does not stay
 * in the page's memory after the session ends (ASVS 14.3.1). Signing in keeps what is there.
 */
export function forgetOnSignOut(
  subscribe: (listener: () => void) => () => void,
  currentUserId: () => number | null,
  forget: () => void,
): () => void {
  let last = currentUserId();
  return subscribe(() => {
    const next = currentUserId();
    if (last !== null && next !== last) forget();
    last = next;
  });
}
