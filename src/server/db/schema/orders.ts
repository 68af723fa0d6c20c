import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { kits } from './catalog.ts';

/** An order at checkout; its lines copy what was sold (title, price, price id) at that time. */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    /** The id the browser and the payment provider see (`custom_data.order_id`). */
    publicId: text('public_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: ['pending', 'paid', 'partially_refunded', 'refunded', 'flagged'] })
      .notNull()
      .default('pending'),
    currency: text('currency').notNull().default('USD'),
    totalCents: integer('total_cents').notNull(),
    /** The set of kit ids, sorted and joined, to find a pending order for the same cart. */
    itemsKey: text('items_key').notNull(),
    transactionId: text('transaction_id'),
    flaggedReason: text('flagged_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_public_id_key').on(t.publicId),
    uniqueIndex('orders_transaction_id_key').on(t.transactionId),
    index('orders_user_pending_idx').on(t.userId, t.itemsKey).where(sql`${t.status} = 'pending'`),
    // The owner console: newest first, by buyer, by day paid.
    index('orders_created_idx').on(t.createdAt, t.id),
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_paid_at_idx').on(t.paidAt).where(sql`${t.paidAt} IS NOT NULL`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kitId: integer('kit_id')
      .notNull()
      .references(() => kits.id),
    title: text('title').notNull(),
    priceCents: integer('price_cents').notNull(),
    paddlePriceId: text('paddle_price_id').notNull(),
    /** The provider's line id (`txnitm_...`), which refunds refer to. */
    transactionItemId: text('transaction_item_id'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    index('order_items_order_id_idx').on(t.orderId),
    index('order_items_transaction_item_idx').on(t.transactionItemId),
    index('order_items_kit_idx').on(t.kitId, t.orderId),
    index('order_items_refunded_idx').on(t.refundedAt).where(sql`${t.refundedAt} IS NOT NULL`),
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
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
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
