import { useSyncExternalStore } from 'react';
import { initialData } from '../lib/initial-data.ts';

/** `owner`: the user may open the owner console (the server checks it again on every owner call). */
export type CurrentUser = { id: number; name: string; owner?: boolean };

/** The signed-in user: set from the initial data when it has an id; null means signed out. */
let current: CurrentUser | null =
  typeof initialData.user.id === 'number'
    ? { ...initialData.user, id: initialData.user.id, name: initialData.user.name ?? '' }
    : null;
const listeners = new Set<() => void>();

export function setCurrentUser(user: CurrentUser | null): void {
  current = user;
  for (const listener of listeners) listener();
}

/** Calls `listener` after every change of the signed-in user; answers a function that stops it. */
export function subscribeToCurrentUser(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const currentUserId = (): number | null => current?.id ?? null;

export function useCurrentUser(): CurrentUser | null {
  return useSyncExternalStore(
    subscribeToCurrentUser,
    () => current,
    // The server renders every visitor's page alike (signed out); the browser shows the name once
    // it has hydrated that page.
    () => null,
  );
}
