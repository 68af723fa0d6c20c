import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { forgetOnSignOut } from './forget-on-sign-out.ts';

/** A stand-in for app/session.ts: the signed-in user's id and its listeners. */
function userStore(initial: number | null) {
  let id = initial;
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    id: () => id,
    set(next: number | null) {
      id = next;
      for (const listener of listeners) listener();
    },
  };
}

describe('forgetOnSignOut', () => {
  it('empties the query cache when the user signs out or another account signs in, not when one signs in', () => {
    const user = userStore(7);
    const client = new QueryClient();
    forgetOnSignOut(user.subscribe, user.id, () => client.clear());
    client.setQueryData(['admin', 'customer', 3], { email: 'buyer@example.com' });
    user.set(7); // the same user again (a refreshed name): nothing is forgotten
    expect(client.getQueryData(['admin', 'customer', 3])).toEqual({ email: 'buyer@example.com' });
    user.set(null);
    expect(client.getQueryCache().getAll()).toEqual([]);

    client.setQueryData(['products'], [{ id: 1 }]);
    user.set(8); // signing in keeps what a signed-out visitor may see anyway
    expect(client.getQueryData(['products'])).toEqual([{ id: 1 }]);
    client.setQueryData(['order', 'ord_1'], { total: 49 });
    user.set(9); // another account in this page
    expect(client.getQueryCache().getAll()).toEqual([]);
  });

  it('stops when unsubscribed', () => {
    const user = userStore(1);
    let forgotten = 0;
    const stop = forgetOnSignOut(user.subscribe, user.id, () => forgotten++);
    stop();
    user.set(null);
    expect(forgotten).toBe(0);
  });
});
