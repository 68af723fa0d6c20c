import type { PurchaseItem, PurchasesResponse } from '../../../common/schemas/accounts.ts';
import { apiPost } from '../../lib/api.ts';
import { useFreshQuery } from '../../lib/fresh-query.ts';

export const fetchPurchases = () => apiPost<PurchasesResponse>('/api/purchases');

export type PurchasesState = { isPending: true; items: null } | { isPending: false; items: PurchaseItem[] };

/** The purchases, or none when the server refuses (401 after the session ended, or any other non-200). */
const readPurchases = (): Promise<PurchaseItem[]> =>
  fetchPurchases()
    .then((response) => (Array.isArray(response?.items) ? response.items : []))
    .catch((error: unknown) => {
      console.warn('Could not load purchases', error);
      return [];
    });

/**
 * The signed-in user's purchases, fetched afresh on every visit (a purchase appears within minutes
 * of paying). A refusal is only logged, as the spec says, and the tab shows its empty state.
 * (Mount it keyed by the user to read again for another.)
 */
export function usePurchases(): PurchasesState {
  const { query } = useFreshQuery(['purchases'], readPurchases);
  return query.isSuccess ? { isPending: false, items: query.data } : { isPending: true, items: null };
}
