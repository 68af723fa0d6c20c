import type { BusinessDetailsInput, BuyerOrder, BuyerOrdersResponse } from '../../../common/schemas/orders.ts';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useFreshQuery } from '../../lib/fresh-query.ts';

/** The buyer's paid and refunded orders, read afresh on every visit of the Orders tab. */
export function useBuyerOrders() {
  return useFreshQuery(['buyer-orders'], () => apiGet<BuyerOrdersResponse>('/api/orders').then((r) => r.items));
}

/** Business details for an order: kept on a pending one (checkout), added once to a paid one. */
export const saveBusinessDetails = (orderId: string, details: BusinessDetailsInput) =>
  apiPost<{ ok: true }>(`/api/orders/${encodeURIComponent(orderId)}/business`, details);

export type { BuyerOrder };

/** Takes business details off an order still at checkout. */
export const clearBusinessDetails = (orderId: string) =>
  apiPost<{ ok: true }>(`/api/orders/${encodeURIComponent(orderId)}/business/clear`);
