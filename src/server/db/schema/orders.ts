import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { userIdColumn, users } from './accounts.ts';
import { kitIdColumn, kitLicences } from './catalog.ts';
import { createdAt, timestamptz } from './columns.ts';

/**
 * A discount code. `code_key` is the code in lower case (codes are case-insensitive and unique in
 * any case). `redemptions` counts paid orders that used it and were not refunded in full; it is
 * changed only with the row locked, so it never passes `max_redemptions`.
 */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    codeKey: text('code_key').notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    /** The kits it applies to; null for every kit. */
    kitIds: jsonb('kit_ids').$type<number[]>(),
    startsAt: timestamptz('starts_at'),
    endsAt: timestamptz('ends_at'),
    maxRedemptions: integer('max_redemptions'),
    redemptions: integer('redemptions').notNull().default(0),
    oncePerCustomer: boolean('once_per_customer').notNull().default(false),
    active: boolean('active').notNull().default(true),
    /** With PAYMENT_PROVIDER=paddle: the Paddle discount (`dsc_...`) this code mirrors. */
    paddleDiscountId: text('paddle_discount_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('discount_codes_code_key').on(t.codeKey)],
);

/** A company buying: what its invoice names (`country` is an ISO 3166-1 alpha-2 code). */
export type OrderBusiness = {
  company_name: string;
  vat_id: string | null;
  country: string;
  address_line: string | null;
  city: string | null;
  postal_code: string | null;
};

/** An order at checkout; its lines copy what was sold (title, price, price id) at that time. */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    /** The id the browser and the payment provider see (`custom_data.order_id`). */
    publicId: text('public_id').notNull(),
    userId: userIdColumn(),
    status: text('status', { enum: ['pending', 'paid', 'partially_refunded', 'refunded', 'flagged'] })
      .notNull()
      .default('pending'),
    currency: text('currency').notNull().default('USD'),
    totalCents: integer('total_cents').notNull(),
    /** The set of kit ids, sorted and joined, to find a pending order for the same cart. */
    itemsKey: text('items_key').notNull(),
    transactionId: text('transaction_id'),
    flaggedReason: text('flagged_reason'),
    /** The discount code the order was priced with, and what it took off (cents). */
    discountCodeId: integer('discount_code_id').references(() => discountCodes.id),
    discountCents: integer('discount_cents').notNull().default(0),
    /**
     * When the buyer last opened this checkout with its code: while recent, it holds a use of a
     * limited code for them. Null when it holds none (no code, or the buyer's newer checkout
     * superseded it).
     */
    codeHeldAt: timestamptz('code_held_at'),
    /**
     * When an owner's refund of this order was reserved, before the provider is asked: while recent,
     * another refund of the order waits for its answer. Cleared once the provider has answered.
     */
    refundReservedAt: timestamptz('refund_reserved_at'),
    /** The buyer's business (company, VAT ID, address) for the invoice: given at checkout or added once after. */
    business: jsonb('business').$type<OrderBusiness>(),
    /** When the buyer added business details after paying (once per order; with Paddle, its revision). */
    businessAddedAt: timestamptz('business_added_at'),
    createdAt: createdAt(),
    paidAt: timestamptz('paid_at'),
  },
  (t) => [
    uniqueIndex('orders_public_id_key').on(t.publicId),
    uniqueIndex('orders_transaction_id_key').on(t.transactionId),
    index('orders_user_pending_idx').on(t.userId, t.itemsKey).where(sql`${t.status} = 'pending'`),
    // The owner console: newest first, by buyer, by day paid. The buyer rides along in the newest-first
    // index, so a search by buyer walks it without reading each order (an index-only scan).
    index('orders_created_idx').on(t.createdAt, t.id, t.userId),
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_paid_at_idx').on(t.paidAt, t.id).where(sql`${t.paidAt} IS NOT NULL`),
    // A code's holds (its limit counts the recent ones at checkout).
    index('orders_code_hold_idx')
      .on(t.discountCodeId, t.codeHeldAt)
      .where(sql`${t.status} = 'pending' AND ${t.codeHeldAt} IS NOT NULL`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kitId: kitIdColumn(),
    title: text('title').notNull(),
    /** What the buyer pays for the line, after any discount code. */
    priceCents: integer('price_cents').notNull(),
    /** The unit price the payment provider charges before a code: the kit's price, or its upgrade price. */
    listPriceCents: integer('list_price_cents').notNull(),
    /** The kits this line also grants (a bundle's contents), copied at checkout. */
    includes: jsonb('includes').$type<number[]>().notNull().default([]),
    paddlePriceId: text('paddle_price_id').notNull(),
    /** The provider's line id (`txnitm_...`), which refunds refer to. */
    transactionItemId: text('transaction_item_id'),
    /** When the line was refunded in full (its kits go); a partial refund leaves it null. */
    refundedAt: timestamptz('refunded_at'),
    /** What approved refunds gave back of `price_cents` (before tax), summed over `order_refunds`. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** What an upgrade price took off the kit's price: the credit of the lines in `credited_items`. */
    creditCents: integer('credit_cents').notNull().default(0),
    /** The buyer's earlier lines (ids) whose payment counted towards this line's upgrade price. */
    creditedItems: jsonb('credited_items').$type<number[]>().notNull().default([]),
    /**
     * When the line stopped granting its kits without being refunded: an upgrade whose credited
     * lines were refunded below the credit it took.
     */
    lapsedAt: timestamptz('lapsed_at'),
    /** The licence tier sold (null for Solo), and the seats it covers, copied at checkout. */
    licenceId: integer('licence_id').references(() => kitLicences.id),
    seats: integer('seats').notNull().default(1),
  },
  (t) => [
    index('order_items_order_id_idx').on(t.orderId),
    index('order_items_transaction_item_idx').on(t.transactionItemId),
    index('order_items_kit_idx').on(t.kitId, t.orderId),
    index('order_items_refunded_idx').on(t.refundedAt).where(sql`${t.refundedAt} IS NOT NULL`),
  ],
);

/**
 * Each approved refund or chargeback of a line, once per provider adjustment (`adj_...`): what it
 * gave back before tax. A repeated or updated adjustment finds its row and adds nothing.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    adjustmentId: text('adjustment_id').notNull(),
    itemId: integer('item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    cents: integer('cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.adjustmentId] }), index('order_refunds_created_idx').on(t.createdAt)],
);

/** A paid order's use of a code: one per order; removed when the order is refunded in full. */
export const discountRedemptions = pgTable(
  'discount_redemptions',
  {
    orderId: integer('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    codeId: integer('code_id')
      .notNull()
      .references(() => discountCodes.id),
    userId: integer('user_id').notNull(),
    /**
     * The buyer's mailbox when they paid (`mailboxKey`), so "once per customer" also knows their
     * other accounts at the same mailbox. Cleared when the account is erased.
     */
    mailbox: text('mailbox'),
    redeemedAt: timestamptz('redeemed_at').notNull().defaultNow(),
  },
  (t) => [
    index('discount_redemptions_code_user_idx').on(t.codeId, t.userId),
    index('discount_redemptions_code_mailbox_idx').on(t.codeId, t.mailbox),
  ],
);

/** Every payment event received, once (its id is the key), with what it did. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    eventId: text('event_id').primaryKey(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    /** fulfilled, refunded, flagged, ignored, or waiting (a refund that came before its payment). */
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    transactionId: text('transaction_id'),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [
    index('payment_events_transaction_idx').on(t.transactionId).where(sql`${t.outcome} = 'waiting'`),
    index('payment_events_transaction_all_idx').on(t.transactionId, t.receivedAt),
  ],
);

/**
 * Sales of whole past days (UTC), written once a day is over and read by the owner's summary, so a
 * year's figures are 365 rows rather than every order. Today is always counted live.
 */
export const salesDays = pgTable('sales_days', {
  day: date('day').primaryKey(),
  grossCents: integer('gross_cents').notNull(),
  refundsCents: integer('refunds_cents').notNull(),
  orders: integer('orders').notNull(),
  checkouts: integer('checkouts').notNull(),
});

/** Units and gross per kit of whole past days, as salesDays. */
export const kitSalesDays = pgTable(
  'kit_sales_days',
  {
    day: date('day').notNull(),
    kitId: integer('kit_id').notNull(),
    units: integer('units').notNull(),
    grossCents: integer('gross_cents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kitId] })],
);

/**
 * The seats of a Team line beyond the buyer's own: an invitation (pending) until the invitee
 * accepts (active, `user_id` set and the kit granted with source `seat:<id>`), then removed; a
 * pending one may be cancelled. `email_key` is the address in lower case: one open seat per address
 * and line. Only the invitation token's SHA-256 is kept.
 */
export const teamSeats = pgTable(
  'team_seats',
  {
    id: serial('id').primaryKey(),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    emailKey: text('email_key').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'active', 'cancelled', 'removed'] })
      .notNull()
      .default('pending'),
    tokenHash: text('token_hash').notNull(),
    invitedAt: timestamptz('invited_at').notNull().defaultNow(),
    acceptedAt: timestamptz('accepted_at'),
    endedAt: timestamptz('ended_at'),
  },
  (t) => [
    uniqueIndex('team_seats_open_email_key')
      .on(t.orderItemId, t.emailKey)
      .where(sql`${t.status} IN ('pending', 'active')`),
    index('team_seats_item_idx').on(t.orderItemId),
    index('team_seats_user_idx').on(t.userId),
    uniqueIndex('team_seats_token_key').on(t.tokenHash),
  ],
);

/**
 * The last number given in each series of the shop's own documents (`invoice`, `credit_note`): taken
 * with the row locked in the transaction that issues the document, so numbers run without gaps and
 * none is given twice.
 */
export const documentCounters = pgTable('document_counters', {
  series: text('series', { enum: ['invoice', 'credit_note'] }).primaryKey(),
  last: integer('last').notNull(),
});

/**
 * The invoices and credit notes the shop issued for sandbox orders, each with its number, once: an
 * order's invoice when first asked for, a credit note for each refund (the provider's adjustment).
 */
export const orderDocuments = pgTable(
  'order_documents',
  {
    id: serial('id').primaryKey(),
    series: text('series', { enum: ['invoice', 'credit_note'] }).notNull(),
    number: integer('number').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** A credit note's refund (`adj_...`); '' for the invoice. */
    adjustmentId: text('adjustment_id').notNull().default(''),
    issuedAt: timestamptz('issued_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('order_documents_series_number_key').on(t.series, t.number),
    uniqueIndex('order_documents_order_key').on(t.orderId, t.series, t.adjustmentId),
  ],
);
