import type { CartRequest, CartResponse } from '../../../common/schemas/orders.ts';
import { apiPost } from '../api.ts';
import type { LocalCart } from './cart-store.ts';

/** The ids in the local cart, as the server expects them (`products`). */
export const cartProductIds = (cart: LocalCart): number[] => Object.values(cart.items);

/**
 * Prices the local cart on the server. The cart page asks without `checkout`; the checkout page
 * asks with `checkout: true`, which needs a signed-in session (403 otherwise) and opens the order.
 */
export async function fetchPricedCart({ products, checkout }: CartRequest): Promise<CartResponse> {
  const body: CartRequest = checkout ? { products, checkout: true } : { products };
  const response = await apiPost<Partial<CartResponse> | null>('/api/cart', body);
  return {
    items: Array.isArray(response?.items) ? response.items : [],
    order_id: typeof response?.order_id === 'string' && response.order_id ? response.order_id : null,
    email: typeof response?.email === 'string' && response.email ? response.email : null,
  };
}
