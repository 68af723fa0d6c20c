import { z } from 'zod';

/** The owner console's calls (`/api/admin/...`): inputs checked by the server, answers as typed here. */

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day as YYYY-MM-DD')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: 'must be a real day',
    },
  );

export const SummaryQuerySchema = z.object({ from: Day.optional(), to: Day.optional() });

const Limit = (max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : Number(v)),
    z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(max, `must be at most ${max}`)
      .default(fallback),
  );
const Cursor = z.string().max(200).optional();
const Text = z.string().trim().max(200).optional();

export const ORDER_STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'flagged'] as const;

export const OrdersQuerySchema = z.object({
  query: Text,
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(ORDER_STATUSES).optional()),
  cursor: Cursor,
  limit: Limit(100, 25),
});
/** `GET /api/admin/orders.csv`: the accounting export of [from, to], UTC days, both included. */
export const OrdersExportQuerySchema = z
  .object({ from: Day, to: Day })
  .refine((range) => range.from <= range.to, { message: 'must not be before from', path: ['to'] });

export const CustomersQuerySchema = z.object({ query: Text, cursor: Cursor, limit: Limit(100, 25) });
export const PageQuerySchema = z.object({ cursor: Cursor, limit: Limit(500, 50) });
export const SubscribersQuerySchema = z.object({ query: Text, cursor: Cursor, limit: Limit(500, 50) });
export const MessagesQuerySchema = z.object({
  status: z.preprocess((v) => (v === '' || v === undefined ? 'all' : v), z.enum(['new', 'answered', 'all'])),
  query: Text,
  cursor: Cursor,
  limit: Limit(100, 25),
});

export const RefundSchema = z.object({
  kit_ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(100).optional(),
  reason: z.string().trim().min(1, 'give a reason').max(500),
});
export const GrantSchema = z.object({
  kit_id: z.number().int().positive().max(2_147_483_647),
  note: z.string().trim().max(500).optional().default(''),
});
export const KitVisibilitySchema = z.object({ active: z.boolean() });
export const ReplySchema = z.object({ body: z.string().trim().min(1, 'write a reply').max(10_000) });

export type OrderLine = {
  kit_id: number;
  title: string;
  price: number;
  /** Refunded in full: the buyer lost its kits. */
  refunded: boolean;
  /** What refunds gave back of the line (before tax); less than `price` for a partial refund, which keeps the kits. */
  refunded_amount: number;
  /** An upgrade that ended: a purchase its upgrade price counted was refunded. */
  lapsed: boolean;
};
export type OwnerOrder = {
  id: string;
  status: (typeof ORDER_STATUSES)[number];
  created_at: string;
  paid_at: string | null;
  email: string;
  name: string;
  total: number;
  lines: OrderLine[];
};
/** A Team line's seats, as the owner console shows them: the buyer holds the first. */
export type OwnerTeam = {
  order_id: string;
  title: string;
  seats: number;
  used: number;
  members: {
    id: number;
    status: 'active' | 'pending';
    name: string | null;
    email: string;
    invited_at: string;
    accepted_at: string | null;
  }[];
};
export type OwnerOrderDetail = OwnerOrder & {
  /** The order's Team lines with their seats (the buyer's own not listed). */
  teams?: OwnerTeam[];
  /** The discount code the order was priced with, and what it took off. */
  discount?: { code: string; amount: number } | null;
  events: { at: string; type: string; outcome: string; detail: string | null }[];
  mails: { at: string; subject: string; status: 'sent' | 'queued' | 'retrying' }[];
  /**
   * Later upgrades (bundles bought at an upgrade price) that counted lines of this order (`kit_ids`):
   * a refund that leaves less than `credit` paid of what they counted (`covered` now) ends them.
   */
  upgrades: { order_id: string; title: string; price: number; credit: number; covered: number; kit_ids: number[] }[];
  /** Set by a refund asked of Paddle: access goes when Paddle's approved adjustment arrives. */
  refund_requested?: true;
};
export type OwnerCustomer = {
  id: number;
  email: string;
  name: string;
  created_at: string;
  verified: boolean;
  orders: number;
  spent: number;
  last_sign_in: string | null;
};
export type OwnerCustomerDetail = OwnerCustomer & {
  /** How each kit is owned: an order, an owner's grant, or a seat of a Team licence (`order_id` its order). */
  kits: {
    kit_id: number;
    title: string;
    source: 'order' | 'grant' | 'seat';
    order_id: string | null;
    granted_at: string;
  }[];
  downloads: { kit_id: number; version: string; at: string }[];
  /** The customer's orders, newest first (at most 100). */
  order_list: { id: string; status: string; created_at: string; total: number }[];
  /** The Team licences the customer bought, with their seats. */
  teams?: OwnerTeam[];
  /** GitHub repository grants and revokes that failed for good (newest first), with GitHub's answer. */
  repository_failures: { action: string; repository: string; login: string; error: string; at: string }[];
};
export type OwnerKit = {
  id: number;
  sef_id: string;
  title: string;
  price: number;
  active: boolean;
  version: string | null;
  released_on: string | null;
  units: number;
  gross: number;
  downloads: number;
  owners: number;
};
export type OwnerMessage = {
  id: number;
  created_at: string;
  topic: string | null;
  name: string;
  email: string;
  message: string;
  status: 'new' | 'answered';
};
export type OwnerSummary = {
  gross: number;
  refunds: number;
  net: number;
  orders: number;
  customers: number;
  checkouts: number;
  /** Paid orders per checkout started, 0..1 (0 without checkouts). */
  conversion: number;
  by_day: { date: string; gross: number; refunds: number; orders: number }[];
  top_kits: { id: number; sef_id: string; title: string; units: number; gross: number }[];
};
export type Page<T> = { items: T[]; next_cursor: string | null };
/** A page of a list that also says how many records match in all. */
export type CountedPage<T> = Page<T> & { total: number };
export type OwnerActivity = { at: string; actor: string; action: string; target: string; detail: string };
