import type { CartRequest, CartResponse } from '../../../common/schemas/orders.ts';
import { ApiError, apiPost } from '../api.ts';
import type { LocalCart } from './cart-store.ts';
import { discountCodeStore } from './discount-code.ts';

/** The ids in the local cart, as the server expects them (`products`). */
export const cartProductIds = (cart: LocalCart): number[] => Object.values(cart.items);

/**
 * Prices the local cart on the server. The cart page asks without `checkout`; the checkout page
 * asks with `checkout: true`, which needs a signed-in session (403 otherwise) and opens the order.
 */
export async function fetchPricedCart({ products, checkout, discount_code }: CartRequest): Promise<CartResponse> {
  const body: CartRequest = {
    products,
    ...(checkout ? { checkout: true } : {}),
    ...(discount_code ? { discount_code } : {}),
  };
  const response = await apiPost<Partial<CartResponse> | null>('/api/cart', body);
  return {
    ...response,
    items: Array.isArray(response?.items) ? response.items : [],
    order_id: typeof response?.order_id === 'string' && response.order_id ? response.order_id : null,
    email: typeof response?.email === 'string' && response.email ? response.email : null,
  };
}

/** A refused code (unknown, expired, paused, used up, not for these kits): 409 or 422 with the reason. */
export const isCodeRefusal = (error: unknown) =>
  error instanceof ApiError && (error.status === 409 || error.status === 422);

/**
 * Prices the cart with the remembered code. When the server refuses the code, the code is
 * forgotten and the cart priced without it; `codeError` says why, for the page to show.
 */
export async function fetchCartWithCode(
  request: Omit<CartRequest, 'discount_code'>,
  code: string | null,
): Promise<{ cart: CartResponse; codeError: string | null }> {
  try {
    return { cart: await fetchPricedCart({ ...request, discount_code: code ?? undefined }), codeError: null };
  } catch (error) {
    if (!code || !isCodeRefusal(error)) throw error;
    discountCodeStore.clear();
    return { cart: await fetchPricedCart(request), codeError: (error as Error).message };
  }
}
