import { z } from 'zod';

/** `POST /api/cart`: the ids in the local cart; `checkout: true` on the checkout page. */
export const CartRequestSchema = z.object({
  products: z.array(z.number().int().positive().max(2_147_483_647)).max(100, 'Too many items in the cart.'),
  checkout: z.boolean().optional().default(false),
});

export type CartRequest = z.input<typeof CartRequestSchema>;

/** A cart line as the server prices it: price in US dollars, `paddle_id` the provider's price id. */
export const CartItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  spot: z.string(),
  price: z.number(),
  purchased: z.boolean(),
  paddle_id: z.string(),
});
/** `POST /api/cart`: the lines (ids the server does not know are dropped), the order and buyer e-mail. */
export const CartResponseSchema = z.object({
  items: z.array(CartItemSchema),
  order_id: z.string().nullable(),
  email: z.string().nullable(),
});
export type CartItem = z.output<typeof CartItemSchema>;
export type CartResponse = z.output<typeof CartResponseSchema>;

export const SandboxPaySchema = z.object({
  order_id: z.string().min(1).max(64),
  card_number: z.string().max(40),
});

/** `GET /api/orders/{order_id}`: one of the buyer's own orders. */
export const OrderParamsSchema = z.object({ order_id: z.string().min(1).max(64) });

/** The order's status and its kits as sold (id and title copied at checkout). */
export const OrderResponseSchema = z.object({
  order_id: z.string(),
  status: z.enum(['pending', 'paid', 'partially_refunded', 'refunded', 'flagged']),
  items: z.array(z.object({ id: z.number().int(), title: z.string() })),
});
export type OrderResponse = z.output<typeof OrderResponseSchema>;
