import { useQuery } from '@tanstack/react-query';
import { PAGE_QUERY_KEYS } from '../../../common/page-data.ts';
import type { KitDocs, KitProduct, KitSummary } from '../../../common/schemas/catalog.ts';
import { apiGet, apiPost } from '../../lib/api.ts';

/** The kits of the home grid; `enabled: false` waits (the phone menu asks only once it opens). */
export const useKits = (enabled = true) =>
  useQuery({
    queryKey: PAGE_QUERY_KEYS.products(),
    queryFn: () => apiPost<KitSummary[]>('/api/products'),
    staleTime: 5 * 60_000,
    enabled,
  });

/** A kit's product answer; null when the server's page said there is no such kit (a 404 it rendered). */
export const useKit = (sefId: string) =>
  useQuery<KitProduct | null>({
    queryKey: PAGE_QUERY_KEYS.product(sefId),
    queryFn: () => apiPost<KitProduct>(`/api/product/${encodeURIComponent(sefId)}`),
  });

/** A kit's documentation; null when the server's page said it has none (a 404 it rendered). */
export const useKitDocs = (sefId: string) =>
  useQuery<KitDocs | null>({
    queryKey: PAGE_QUERY_KEYS.docs(sefId),
    queryFn: () => apiGet<KitDocs>(`/api/docs/${encodeURIComponent(sefId)}`),
  });
