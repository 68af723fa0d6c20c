import { useEffect, useState } from 'react';
import type { PurchaseItem, PurchasesResponse } from '../../../common/schemas/accounts.ts';
import { apiPost } from '../../lib/api.ts';

export const fetchPurchases = () => apiPost<PurchasesResponse>('/api/purchases');

export type PurchasesState = { isPending: true; items: null } | { isPending: false; items: PurchaseItem[] };

/**
 * The signed-in user's purchases, fetched afresh on every visit (a purchase appears within minutes
 * of paying). A refusal (401 after the session ended, or any other non-200) is only logged, as the
 * spec says, and the tab shows its empty state. (Mount it keyed by the user to refetch for another.)
 *
 * A plain effect rather than TanStack Query: a lazy chunk that imports @tanstack/react-query makes
 * Rolldown move React Router out of the entry chunk into a shared chunk (same bytes, one more request).
 */
export function usePurchases(): PurchasesState {
  const [state, setState] = useState<PurchasesState>({ isPending: true, items: null });
  useEffect(() => {
    let current = true;
    fetchPurchases()
      .then((response) => (Array.isArray(response?.items) ? response.items : []))
      .catch((error: unknown) => {
        console.warn('Could not load purchases', error);
        return [];
      })
      .then((items) => {
        if (current) setState({ isPending: false, items });
      });
    return () => {
      current = false;
    };
  }, []);
  return state;
}
