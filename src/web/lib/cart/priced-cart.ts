import type { CartItem, CartResponse } from '../../../common/schemas/orders.ts';
import { apiPost } from '../api.ts';
import type { LocalCart } from './cart-store.ts';

/** A cart line as the server prices it: price in US dollars, `paddle_id` the provider's price id. */
export type CartLine = CartItem;

/** `POST /api/cart`: the lines (ids the server does not know are dropped), the order and buyer e-mail. */
export type PricedCart = CartResponse;

/** The ids in the local cart, as the server expects them (`products`). */
export const cartProductIds = (cart: LocalCart): number[] => Object.values(cart.items);

/**
 * Prices the local cart on the server. The cart page asks without `checkout`; the checkout page
 * asks with `checkout: true`, which needs a signed-in session (403 otherwise) and opens the order.
 */
export async function fetchPricedCart(products: number[], options: { checkout?: boolean } = {}): Promise<PricedCart> {
  const body = options.checkout ? { products, checkout: true } : { products };
  const response = await apiPost<Partial<PricedCart> | null>('/api/cart', body);
  return {
    items: Array.isArray(response?.items) ? response.items : [],
    order_id: typeof response?.order_id === 'string' && response.order_id ? response.order_id : null,
    email: typeof response?.email === 'string' && response.email ? response.email : null,
  };
}
