import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders, paymentEvents } from '../../db/schema/orders.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { orderConfirmationMail } from '../../integrations/mail/templates.ts';
import {
  type PaymentCompleted,
  type PaymentReversed,
  type ReceivedEvent,
  readPaddleEvent,
} from '../../integrations/payments/events.ts';
import { grantEntitlements, revokeEntitlements } from '../library/library.service.ts';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Outcome = 'duplicate' | 'fulfilled' | 'refunded' | 'flagged' | 'waiting' | 'ignored';
type Result = { outcome: Exclude<Outcome, 'duplicate'>; detail?: string; transactionId?: string };

/**
 * Applies one payment event. The event row (keyed by the provider's event id) is written in the
 * same transaction as its effects: a repeated delivery finds the row and changes nothing, and a
 * failure rolls both back so the provider's retry starts clean.
 */
export async function applyPaymentEvent(
  deps: { db: Database; config: Config; mailQueued: () => void },
  received: ReceivedEvent,
  payload: unknown,
): Promise<Outcome> {
  const outcome = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(paymentEvents)
      .values({ eventId: received.eventId, eventType: received.eventType, payload, outcome: 'processing' })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (inserted.length === 0) return 'duplicate' as const;
    const { event } = received;
    const result: Result =
      event.kind === 'payment_completed'
        ? await fulfil(tx, deps.config, event)
        : event.kind === 'payment_reversed'
          ? await reverse(tx, event)
          : { outcome: 'ignored' };
    await tx
      .update(paymentEvents)
      .set({ outcome: result.outcome, detail: result.detail ?? null, transactionId: result.transactionId ?? null })
      .where(eq(paymentEvents.eventId, received.eventId));
    return result.outcome;
  });
  if (outcome === 'fulfilled') deps.mailQueued();
  return outcome;
}

async function fulfil(tx: Tx, config: Config, event: PaymentCompleted): Promise<Result> {
  const flag = async (orderId: number | undefined, detail: string): Promise<Result> => {
    if (orderId !== undefined) {
      await tx
        .update(orders)
        .set({ status: 'flagged', flaggedReason: detail })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')));
    }
    return { outcome: 'flagged', detail, transactionId: event.transactionId };
  };
  if (!event.orderPublicId) return flag(undefined, 'The transaction carries no order id.');
  // One round trip for the order (locked), its lines, its buyer and any refund waiting for it.
  const { rows } = await tx.execute<{
    id: number;
    public_id: string;
    user_id: number;
    status: string;
    currency: string;
    total_cents: number;
    transaction_id: string | null;
    buyer_name: string;
    buyer_email: string;
    items: { id: number; kitId: number; title: string; priceCents: number; paddlePriceId: string }[];
    has_waiting: boolean;
  }>(sql`
    SELECT o.id, o.public_id, o.user_id, o.status, o.currency, o.total_cents, o.transaction_id,
           u.name AS buyer_name, u.email AS buyer_email,
           (SELECT json_agg(json_build_object('id', i.id, 'kitId', i.kit_id, 'title', i.title,
                   'priceCents', i.price_cents, 'paddlePriceId', i.paddle_price_id) ORDER BY i.id)
              FROM order_items i WHERE i.order_id = o.id) AS items,
           EXISTS (SELECT 1 FROM payment_events p WHERE p.outcome = 'waiting' AND p.transaction_id = ${event.transactionId}) AS has_waiting
      FROM orders o JOIN users u ON u.id = o.user_id
     WHERE o.public_id = ${event.orderPublicId}
       FOR UPDATE OF o`);
  const row = rows[0];
  if (!row) return flag(undefined, `No order ${event.orderPublicId}.`);
  const order = {
    id: row.id,
    publicId: row.public_id,
    userId: row.user_id,
    status: row.status,
    currency: row.currency,
    totalCents: row.total_cents,
    transactionId: row.transaction_id,
  };
  if (order.status !== 'pending') {
    if (order.transactionId === event.transactionId)
      return { outcome: 'ignored', detail: 'Already fulfilled.', transactionId: event.transactionId };
    return flag(
      undefined,
      `Order ${order.publicId} is ${order.status}; transaction ${event.transactionId} not applied.`,
    );
  }
  const items = row.items ?? [];
  // Totals differ by the tax Paddle adds; what must match is what was sold, line by line.
  const problems: string[] = [];
  if (event.currency !== order.currency) problems.push(`currency ${event.currency} instead of ${order.currency}`);
  if (event.lines.length !== items.length) problems.push(`${event.lines.length} lines instead of ${items.length}`);
  for (const item of items) {
    const line = event.lines.find((l) => l.priceId === item.paddlePriceId);
    if (!line) problems.push(`no line for ${item.paddlePriceId}`);
    else {
      if (line.quantity !== 1) problems.push(`quantity ${line.quantity} for ${item.paddlePriceId}`);
      if (line.unitPriceCents !== item.priceCents || line.currency !== order.currency)
        problems.push(
          `unit price ${line.unitPriceCents} ${line.currency} for ${item.paddlePriceId}, expected ${item.priceCents}`,
        );
    }
  }
  if (problems.length > 0) return flag(order.id, `Does not match order ${order.publicId}: ${problems.join('; ')}.`);

  await tx
    .update(orders)
    .set({ status: 'paid', paidAt: sql`now()`, transactionId: event.transactionId })
    .where(eq(orders.id, order.id));
  const lineIds = items
    .map((item) => ({
      id: item.id,
      lineId: event.lines.find((l) => l.priceId === item.paddlePriceId)?.transactionItemId,
    }))
    .filter((x): x is { id: number; lineId: string } => Boolean(x.lineId));
  if (lineIds.length > 0) {
    await tx.execute(sql`UPDATE order_items SET transaction_item_id = v.line_id
      FROM (VALUES ${sql.join(
        lineIds.map((x) => sql`(${x.id}::int, ${x.lineId}::text)`),
        sql`, `,
      )}) AS v(id, line_id)
      WHERE order_items.id = v.id`);
  }
  await grantEntitlements(
    tx,
    order.userId,
    items.map((i) => i.kitId),
    order.publicId,
  );
  await enqueueMail(
    tx,
    orderConfirmationMail(
      { publicUrl: config.publicUrl, supportEmail: config.supportEmail },
      { name: row.buyer_name, email: row.buyer_email },
      { publicId: order.publicId, items, totalCents: order.totalCents },
    ),
  );
  if (row.has_waiting) await applyWaitingReversals(tx, event.transactionId);
  return { outcome: 'fulfilled', detail: `Order ${order.publicId} paid.`, transactionId: event.transactionId };
}

/** A refund that arrived before its payment waited for it; the payment is here now. */
async function applyWaitingReversals(tx: Tx, transactionId: string) {
  const waiting = await tx
    .select({ eventId: paymentEvents.eventId, payload: paymentEvents.payload })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.outcome, 'waiting'), eq(paymentEvents.transactionId, transactionId)));
  for (const row of waiting) {
    const { event: reversal } = readPaddleEvent(row.payload);
    if (reversal.kind !== 'payment_reversed') continue;
    const result = await reverse(tx, reversal);
    await tx
      .update(paymentEvents)
      .set({ outcome: result.outcome, detail: result.detail ?? null })
      .where(eq(paymentEvents.eventId, row.eventId));
  }
}

async function reverse(tx: Tx, event: PaymentReversed): Promise<Result> {
  const [order] = await tx.select().from(orders).where(eq(orders.transactionId, event.transactionId)).for('update');
  if (!order)
    return {
      outcome: 'waiting',
      detail: 'The payment this refers to has not arrived yet.',
      transactionId: event.transactionId,
    };
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  const affected =
    event.transactionItemIds.length === 0
      ? items
      : items.filter((i) => i.transactionItemId && event.transactionItemIds.includes(i.transactionItemId));
  const fresh = affected.filter((i) => !i.refundedAt);
  if (fresh.length > 0) {
    await tx
      .update(orderItems)
      .set({ refundedAt: sql`now()` })
      .where(
        inArray(
          orderItems.id,
          fresh.map((i) => i.id),
        ),
      );
    await revokeEntitlements(
      tx,
      order.userId,
      fresh.map((i) => i.kitId),
    );
  }
  const refundedCount = items.filter((i) => i.refundedAt || fresh.includes(i)).length;
  await tx
    .update(orders)
    .set({ status: refundedCount === items.length ? 'refunded' : 'partially_refunded' })
    .where(eq(orders.id, order.id));
  return {
    outcome: 'refunded',
    detail: `${event.reason}: ${fresh.map((i) => i.title).join(', ') || 'nothing new'}`,
    transactionId: event.transactionId,
  };
}
