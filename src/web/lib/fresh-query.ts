import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

/**
 * A server read that a screen makes afresh on every visit, and again from its loading state on
 * "Try again": TanStack Query with nothing kept after the screen closes (`gcTime: 0`), nothing
 * fetched behind the screen's back (`staleTime: Infinity`, so no refetch on reconnect) and no
 * silent retries (the screen shows the failure at once, as the spec's loading states expect).
 * Each try is its own query (the attempt is part of the key), so a retry starts from "loading".
 */
export function useFreshQuery<T>(key: readonly unknown[], read: () => Promise<T>, enabled = true) {
  const [attempt, setAttempt] = useState(0);
  const query = useQuery({
    queryKey: [...key, attempt],
    queryFn: read,
    enabled,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { query, retry };
}
