import { z } from 'zod';

/** `POST /api/cart`: the ids in the local cart; `checkout: true` on the checkout page. */
export const CartRequestSchema = z.object({
  products: z.array(z.number().int().positive().max(2_147_483_647)).max(100, 'Too many items in the cart.'),
  checkout: z.boolean().optional().default(false),
});

export type CartItem = {
  id: number;
  title: string;
  spot: string;
  price: number;
  purchased: boolean;
  paddle_id: string;
};
export type CartResponse = { items: CartItem[]; order_id: string | null; email: string | null };

export const SandboxPaySchema = z.object({
  order_id: z.string().min(1).max(64),
  card_number: z.string().max(40),
});
