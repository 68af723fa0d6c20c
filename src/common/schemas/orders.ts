import { z } from 'zod';
import { isCountryCode } from '../countries.ts';
import { checkVatId } from '../vat.ts';

/** `POST /api/cart`: the ids in the local cart; `checkout: true` on the checkout page. */
export const CartRequestSchema = z.object({
  products: z.array(z.number().int().positive().max(2_147_483_647)).max(100, 'Too many items in the cart.'),
  checkout: z.boolean().optional().default(false),
  /** A discount code (any case); empty or null means none. */
  discount_code: z
    .string()
    .trim()
    .max(40, 'discount_code: at most 40 characters.')
    .nullish()
    .transform((v) => v || undefined),
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
  /** The kit's price before an upgrade price or a code; `price` is what is paid for the line. */
  original_price: z.number().optional(),
  /** A bundle priced for a buyer who owns some of its kits: the price before a code, and why. */
  upgrade: z.object({ price: z.number(), reason: z.string() }).nullable().optional(),
  /** Set when a bundle in the same cart includes this kit: it is left out of the order. */
  included_in: z.string().nullable().optional(),
  /** The kit's first screenshot at thumbnail size (a path under the base), null without screenshots. */
  thumbnail_url: z.string().nullable().optional(),
});
/** A code applied to the cart: what it took off in all, in dollars. */
export const CartDiscountSchema = z.object({
  code: z.string(),
  amount: z.number(),
  percent_off: z.number().nullable(),
  amount_off: z.number().nullable(),
  /** With Paddle: the discount Paddle.js applies at checkout. */
  paddle_discount_id: z.string().nullable(),
});
/** `POST /api/cart`: the lines (ids the server does not know are dropped), the order and buyer e-mail. */
export const CartResponseSchema = z.object({
  items: z.array(CartItemSchema),
  order_id: z.string().nullable(),
  email: z.string().nullable(),
  discount: CartDiscountSchema.nullable().optional(),
  /** The sum of the lines' original prices, and what the buyer pays (kits owned or covered left out). */
  subtotal: z.number().optional(),
  total: z.number().optional(),
  /** With Paddle, an order with an upgrade price: the transaction the server created, opened by id. */
  transaction_id: z.string().nullable().optional(),
});
export type CartDiscount = z.output<typeof CartDiscountSchema>;
export type CartItem = z.output<typeof CartItemSchema>;
export type CartResponse = z.output<typeof CartResponseSchema>;

export const SandboxPaySchema = z.object({
  order_id: z.string().min(1).max(64),
  card_number: z.string().max(40),
});

/** `GET /api/orders/{order_id}`: one of the buyer's own orders. */
export const OrderParamsSchema = z.object({ order_id: z.string().min(1).max(64) });

/**
 * The order's status and its kits as sold (id and title copied at checkout), each with what refunds
 * gave back of it (US dollars before tax; a partial refund keeps the kit).
 */
export const OrderResponseSchema = z.object({
  order_id: z.string(),
  status: z.enum(['pending', 'paid', 'partially_refunded', 'refunded', 'flagged']),
  items: z.array(z.object({ id: z.number().int(), title: z.string(), refunded: z.number().optional() })),
});
export type OrderResponse = z.output<typeof OrderResponseSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .nullish()
    .transform((v) => v || null);

/**
 * Business details for an order's invoice (`POST /api/orders/{order_id}/business`): the company, its
 * VAT ID (checked for its country's format and kept normalised) and its address, whose country is
 * required.
 */
export const BusinessDetailsSchema = z
  .object({
    company_name: z.string().trim().min(1, 'Enter the company name.').max(200, 'At most 200 characters.'),
    vat_id: optionalText(40),
    country: z
      .string({ error: 'Choose the country.' })
      .trim()
      .toUpperCase()
      .refine(isCountryCode, 'Choose the country.'),
    address_line: optionalText(200),
    city: optionalText(100),
    postal_code: optionalText(20),
  })
  .transform((value, ctx) => {
    if (!value.vat_id) return value;
    const checked = checkVatId(value.vat_id, value.country);
    if (!checked.ok) {
      ctx.addIssue({ code: 'custom', path: ['vat_id'], message: checked.message });
      return z.NEVER;
    }
    return { ...value, vat_id: checked.value };
  });
export type BusinessDetailsInput = z.input<typeof BusinessDetailsSchema>;
export type BusinessDetails = z.output<typeof BusinessDetailsSchema>;

/** A document of an order: its invoice, or a refund's credit note, fetched at `url` (under the base path). */
export type OrderDocumentLink = { url: string; date: string; amount: number };

/** `GET /api/orders`: the buyer's paid and refunded orders, newest first. */
export type BuyerOrder = {
  order_id: string;
  /** When it was paid (ISO 8601). */
  date: string;
  status: 'paid' | 'partially_refunded' | 'refunded';
  currency: string;
  /** What was paid, in dollars; each kit with its price before and after a code. */
  total: number;
  discount: number;
  kits: { id: number; title: string; price: number; list_price: number }[];
  business: BusinessDetails | null;
  /** Business details can be added (once, after paying) while the order has none. */
  can_add_business: boolean;
  invoice_url: string;
  credit_notes: OrderDocumentLink[];
};
export type BuyerOrdersResponse = { items: BuyerOrder[] };
/** `GET /api/discount-codes/{code}`: the code in its own spelling. */
export const CodeOfferParamsSchema = z.object({ code: z.string().trim().min(1).max(40) });

/**
 * `GET /api/discount-codes/{code}`: a usable code and what it takes off, for a `?code=` link's
 * announcement and the prices beside the kits: each kit it applies to, priced as a cart of that kit
 * alone would be (US dollars); `last_day` is its last day in the shop's time zone (`YYYY-MM-DD`).
 */
export const CodeOfferSchema = z.object({
  code: z.string(),
  percent_off: z.number().nullable(),
  amount_off: z.number().nullable(),
  /** null: every kit; otherwise the kits it is for. */
  kit_ids: z.array(z.number().int()).nullable(),
  prices: z.array(z.object({ id: z.number().int(), title: z.string(), price: z.number(), original_price: z.number() })),
  last_day: z.string().nullable(),
});
export type CodeOffer = z.output<typeof CodeOfferSchema>;

/** `GET /api/shop-stats`: figures from the shop's own records, for the home page. */
export const ShopStatsSchema = z.object({
  /** Distinct buyers with a paid order (paid in full or refunded in part). */
  buyers: z.number().int(),
});
export type ShopStats = z.output<typeof ShopStatsSchema>;
