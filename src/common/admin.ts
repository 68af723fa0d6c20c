import { z } from 'zod';

/**
 * The owner console's calls (`/api/admin/*`, issue 11): one schema per answer and per request body.
 * Money is dollars as numbers (49.5), as elsewhere on the wire; times are ISO strings, days
 * `YYYY-MM-DD`. The browser takes the types only (Zod stays out of the console's chunk).
 */

export const ORDER_STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'flagged'] as const;
export const MESSAGE_FILTERS = ['new', 'answered', 'all'] as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const time = z.string();
const cursor = z.string().nullable();

export const AdminSummaryQuerySchema = z.object({ from: day, to: day });

export const AdminSummarySchema = z.object({
  gross: z.number(),
  refunds: z.number(),
  net: z.number(),
  orders: z.number().int(),
  customers: z.number().int(),
  checkouts: z.number().int(),
  /** Paid orders per checkout started, 0..1. */
  conversion: z.number(),
  by_day: z.array(z.object({ date: day, gross: z.number(), refunds: z.number(), orders: z.number().int() })),
  top_kits: z.array(
    z.object({
      id: z.number().int(),
      sef_id: z.string(),
      title: z.string(),
      units: z.number().int(),
      gross: z.number(),
    }),
  ),
});

export const AdminOrderLineSchema = z.object({
  kit_id: z.number().int(),
  title: z.string(),
  price: z.number(),
  refunded: z.boolean(),
});

export const AdminOrderSchema = z.object({
  /** The public order id the browser sees. */
  id: z.string(),
  status: z.enum(ORDER_STATUSES),
  created_at: time,
  paid_at: time.nullable(),
  email: z.string(),
  name: z.string(),
  total: z.number(),
  lines: z.array(AdminOrderLineSchema),
});

export const AdminOrderListSchema = z.object({ items: z.array(AdminOrderSchema), next_cursor: cursor });

export const AdminOrderDetailSchema = AdminOrderSchema.extend({
  events: z.array(z.object({ at: time, type: z.string(), outcome: z.string(), detail: z.string().nullable() })),
  mails: z.array(z.object({ at: time, subject: z.string(), status: z.string() })),
  /** Paddle: the refund was asked for; access goes when Paddle's approved adjustment arrives. */
  refund_requested: z.boolean().optional(),
});

export const AdminOrdersQuerySchema = z.object({
  query: z.string().max(200).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const AdminRefundSchema = z.object({
  kit_ids: z.array(z.number().int().positive()).min(1).optional(),
  reason: z.string().trim().min(1, 'Give a reason for the refund.').max(500),
});

export const AdminCustomerSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  created_at: time,
  verified: z.boolean(),
  orders: z.number().int(),
  spent: z.number(),
  last_sign_in: time.nullable(),
});

export const AdminCustomerListSchema = z.object({ items: z.array(AdminCustomerSchema), next_cursor: cursor });

export const AdminCustomerDetailSchema = AdminCustomerSchema.extend({
  kits: z.array(
    z.object({
      kit_id: z.number().int(),
      title: z.string(),
      source: z.enum(['order', 'grant']),
      order_id: z.string().nullable(),
      granted_at: time.nullable(),
    }),
  ),
  downloads: z.array(z.object({ kit_id: z.number().int(), version: z.string().nullable(), at: time })),
});

export const AdminGrantSchema = z.object({
  kit_id: z.number().int().positive(),
  note: z.string().trim().max(500).optional().default(''),
});

export const AdminKitSchema = z.object({
  id: z.number().int(),
  sef_id: z.string(),
  title: z.string(),
  price: z.number(),
  active: z.boolean(),
  version: z.string().nullable(),
  released_on: day.nullable(),
  units: z.number().int(),
  gross: z.number(),
  downloads: z.number().int(),
  owners: z.number().int(),
});

export const AdminKitListSchema = z.array(AdminKitSchema);
export const AdminKitUpdateSchema = z.object({ active: z.boolean() });

export const AdminMessageSchema = z.object({
  id: z.number().int(),
  created_at: time,
  topic: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  status: z.enum(['new', 'answered']),
});

export const AdminMessageListSchema = z.object({ items: z.array(AdminMessageSchema) });
export const AdminReplySchema = z.object({ body: z.string().trim().min(1, 'Write a reply.').max(10_000) });

export const AdminSubscriberListSchema = z.object({
  total: z.number().int(),
  items: z.array(z.object({ email: z.string(), subscribed_at: time })),
  next_cursor: cursor,
});

export const AdminActivitySchema = z.object({
  items: z.array(
    z.object({ at: time, actor: z.string(), action: z.string(), target: z.string(), detail: z.string().nullable() }),
  ),
  next_cursor: cursor,
});

export type AdminSummary = z.infer<typeof AdminSummarySchema>;
export type AdminOrder = z.infer<typeof AdminOrderSchema>;
export type AdminOrderLine = z.infer<typeof AdminOrderLineSchema>;
export type AdminOrderList = z.infer<typeof AdminOrderListSchema>;
export type AdminOrderDetail = z.infer<typeof AdminOrderDetailSchema>;
export type AdminRefund = z.input<typeof AdminRefundSchema>;
export type AdminCustomer = z.infer<typeof AdminCustomerSchema>;
export type AdminCustomerList = z.infer<typeof AdminCustomerListSchema>;
export type AdminCustomerDetail = z.infer<typeof AdminCustomerDetailSchema>;
export type AdminGrant = z.input<typeof AdminGrantSchema>;
export type AdminKit = z.infer<typeof AdminKitSchema>;
export type AdminMessage = z.infer<typeof AdminMessageSchema>;
export type AdminMessageList = z.infer<typeof AdminMessageListSchema>;
export type AdminSubscriberList = z.infer<typeof AdminSubscriberListSchema>;
export type AdminActivity = z.infer<typeof AdminActivitySchema>;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type MessageFilter = (typeof MESSAGE_FILTERS)[number];
