import { useQuery } from '@tanstack/react-query';
import type { KitDocs, KitProduct, KitSummary } from '../../../common/schemas/catalog.ts';
import { apiGet, apiPost } from '../../lib/api.ts';

/** The kits of the home grid; `enabled: false` waits (the phone menu asks only once it opens). */
export const useKits = (enabled = true) =>
  useQuery({
    queryKey: ['products'],
    queryFn: () => apiPost<KitSummary[]>('/api/products'),
    staleTime: 5 * 60_000,
    enabled,
  });

/** A kit's product answer; null when the server's page said there is no such kit (a 404 it rendered). */
export const useKit = (sefId: string) =>
  useQuery<KitProduct | null>({
    queryKey: ['product', sefId],
    queryFn: () => apiPost<KitProduct>(`/api/product/${encodeURIComponent(sefId)}`),
  });

/** A kit's documentation; null when the server's page said it has none (a 404 it rendered). */
export const useKitDocs = (sefId: string) =>
  useQuery<KitDocs | null>({
    queryKey: ['docs', sefId],
    queryFn: () => apiGet<KitDocs>(`/api/docs/${encodeURIComponent(sefId)}`),
  });
