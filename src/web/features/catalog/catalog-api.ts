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

export const useKit = (sefId: string) =>
  useQuery({
    queryKey: ['product', sefId],
    queryFn: () => apiPost<KitProduct>(`/api/product/${encodeURIComponent(sefId)}`),
  });

export const useKitDocs = (sefId: string) =>
  useQuery({ queryKey: ['docs', sefId], queryFn: () => apiGet<KitDocs>(`/api/docs/${encodeURIComponent(sefId)}`) });
