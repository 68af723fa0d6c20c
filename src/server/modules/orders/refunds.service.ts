import { sql } from 'drizzle-orm';
import type { Database, Reader } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { PaddleApiError, requestRefund } from '../../integrations/payments/paddle-api.ts';
import { sandboxCustomerId, sandboxRefundApproved } from '../../integrations/payments/sandbox.ts';
import { signPaddleBody } from '../../integrations/payments/signature.ts';
import { findOrder, type OwnerOrderRow } from './orders.owner.service.ts';

/**
 * The refund rules, in one place for the provider's refunds (webhook) and the owner's.
 *
 * - A refund is recorded by amount, once per provider adjustment. A line refunded in full (type
 *   `full`, or partial refunds that add up to its price) loses its kits; a partial refund keeps them.
 * - An upgrade price counts what the buyer paid for kits of the bundle they owned (the credited
 *   lines). When refunds of those lines leave less paid than the credit the upgrade took, the
 *   upgrade lapses: its kits go (unless another paid line or a grant keeps them), and what was paid
 *   for it stays paid until that order is refunded too.
 */

/** A later upgrade still owned (not refunded, not lapsed) that counted some of the lines asked about. */
export type CreditedUpgrade = {
  /** The upgrade's line. */
  id: number;
  order_id: string;
  title: string;
  price_cents: number;
  /** What its upgrade price took off the bundle's price. */
  credit_cents: number;
  /** What stays paid of every line it counted: price less refunds. */
  covered_cents: number;
  /** Which of the lines asked about it counted. */
  credited: number[];
};

/**
 * The upgrades (of pending or paid orders, not refunded, not lapsed) that counted any of these lines
 * of the buyer's. Upgrade lines are found among the buyer's own orders, which are few.
 */
export async function upgradesCrediting(db: Reader, userId: number, itemIds: number[]): Promise<CreditedUpgrade[]> {
  if (itemIds.length === 0) return [];
  const { rows } = await db.execute<CreditedUpgrade>(sql`
    SELECT * FROM (
      SELECT i.id, o.public_id AS order_id, i.title, i.price_cents, i.credit_cents,
             (SELECT COALESCE(sum(c.price_cents - c.refunded_cents), 0)::int FROM order_items c
               WHERE c.id IN (SELECT e.value::int FROM jsonb_array_elements_text(i.credited_items) e)) AS covered_cents,
             ARRAY(SELECT e.value::int FROM jsonb_array_elements_text(i.credited_items) e
                    WHERE e.value::int = ANY(${sql.param(itemIds)}::int[])) AS credited
        FROM orders o JOIN order_items i ON i.order_id = o.id
       WHERE o.user_id = ${userId} AND o.status IN ('pending', 'paid', 'partially_refunded')
         AND i.credit_cents > 0 AND i.refunded_at IS NULL AND i.lapsed_at IS NULL) u
     WHERE cardinality(u.credited) > 0 ORDER BY u.id`);
  return rows;
}

/**
 * Lapses the buyer's upgrades that counted any of `changedItemIds` (lines just refunded, in full or
 * in part) and are no longer covered: what stays paid of their credited lines is below the credit
 * they took. Pending orders' upgrades lapse too, so that their payment grants nothing. Answers the
 * lapsed lines' titles and kits (each bundle's own and its contents). The caller holds the buyer's
 * refund lock.
 */
export async function lapseUncoveredUpgrades(
  tx: Reader,
  userId: number,
  changedItemIds: number[],
): Promise<{ titles: string[]; kitIds: number[] }> {
  if (changedItemIds.length === 0) return { titles: [], kitIds: [] };
  // The orders holding the buyer's upgrades, locked (in id order) before they are read: a payment of
  // a pending one either commits first (its upgrade is then seen paid, and lapses) or finds it lapsed.
  await tx.execute(sql`
    SELECT o.id FROM orders o
     WHERE o.user_id = ${userId} AND o.status IN ('pending', 'paid', 'partially_refunded')
       AND EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.credit_cents > 0
                     AND i.refunded_at IS NULL AND i.lapsed_at IS NULL)
     ORDER BY o.id FOR UPDATE OF o`);
  const uncovered = (await upgradesCrediting(tx, userId, changedItemIds)).filter(
    (u) => u.covered_cents < u.credit_cents,
  );
  if (uncovered.length === 0) return { titles: [], kitIds: [] };
  const { rows } = await tx.execute<{ title: string; order_id: string; kit_id: number; includes: number[] }>(sql`
    UPDATE order_items i SET lapsed_at = now() FROM orders o
     WHERE o.id = i.order_id AND i.id = ANY(${sql.param(uncovered.map((u) => u.id))}::int[])
    RETURNING i.title, o.public_id AS order_id, i.kit_id, i.includes`);
  return {
    titles: rows.map((r) => `${r.title} (order ${r.order_id})`),
    kitIds: [...new Set(rows.flatMap((r) => [r.kit_id, ...r.includes]))],
  };
}

/** Lines of an order the owner asks to refund, what they give back, and the upgrades that refund ends. */
export type RefundPlan = {
  transactionId: string;
  lines: { item_id: string; title: string; cents: number }[];
  cents: number;
  endsUpgrades: CreditedUpgrade[];
};

/**
 * Checks an owner's refund of an order (all its open lines, or the kits named) and plans it: each
 * line refunded in full gives back what was not refunded yet. The upgrades it names end only when
 * the refund is applied (by the provider's approved adjustment).
 */
export async function planRefund(db: Reader, order: OwnerOrderRow, kitIds: number[] | undefined): Promise<RefundPlan> {
  const lines = order.lines ?? [];
  for (const kitId of kitIds ?? [])
    if (!lines.some((l) => l.kit_id === kitId))
      throw new AppError('invalid_data', `kit_ids: kit ${kitId} is not in order ${order.public_id}.`);
  if (order.status !== 'paid' && order.status !== 'partially_refunded')
    throw new AppError('conflict', `Order ${order.public_id} is ${order.status}: only a paid order can be refunded.`);
  const chosen = kitIds ? lines.filter((l) => kitIds.includes(l.kit_id)) : lines;
  const already = chosen.filter((l) => l.refunded);
  if (kitIds && already.length > 0)
    throw new AppError('conflict', `${already.map((l) => l.title).join(', ')}: refunded already.`);
  const todo = chosen.filter((l) => !l.refunded);
  if (todo.length === 0) throw new AppError('conflict', `Order ${order.public_id} is refunded already.`);
  if (!order.transaction_id || todo.some((l) => !l.item_id))
    throw new AppError(
      'conflict',
      'The payment provider did not name these lines: refund this order from its own dashboard.',
    );
  const planned = todo.map((l) => ({ item_id: l.item_id!, title: l.title, cents: l.price_cents - l.refunded_cents }));
  const refunding = new Map(todo.map((l) => [l.id, l.price_cents - l.refunded_cents]));
  const upgrades = await upgradesCrediting(db, order.user_id, [...refunding.keys()]);
  return {
    transactionId: order.transaction_id,
    lines: planned,
    cents: planned.reduce((sum, l) => sum + l.cents, 0),
    endsUpgrades: upgrades.filter(
      (u) => u.covered_cents - u.credited.reduce((sum, id) => sum + (refunding.get(id) ?? 0), 0) < u.credit_cents,
    ),
  };
}

// ---- The owner's refund: reserve, ask the provider, record ------------------------------------------

/** How long a reservation holds the order's refund: past the provider's timeout, then it is stale. */
const RESERVATION_LIFETIME = sql`interval '2 minutes'`;

/** A refund reserved for its order, planned, and not yet sent to the provider. */
export type ReservedRefund = RefundPlan & {
  orderId: string;
  userId: number;
  reason: string;
};

/**
 * The provider's part of a refund, called outside any transaction: Paddle's API (which answers an
 * adjustment to approve), or the sandbox's signed webhook (which refunds at once). A refusal the
 * owner should read throws an AppError.
 */
export type RefundCall = (refund: ReservedRefund) => Promise<{ adjustmentId?: string }>;

/** Paddle's refund API as a refund call: Paddle's refusal is a conflict the owner reads. */
export const paddleRefundCall =
  (api: Parameters<typeof requestRefund>[0]): RefundCall =>
  async (refund) => {
    try {
      const answer = await requestRefund(api, {
        transactionId: refund.transactionId,
        reason: refund.reason,
        itemIds: refund.lines.map((l) => l.item_id),
      });
      return { adjustmentId: answer.adjustmentId };
    } catch (error) {
      if (error instanceof PaddleApiError) throw new AppError('conflict', error.message);
      throw error;
    }
  };

/** The sandbox refunds at once, through the same signed webhook a real refund takes. */
export const sandboxRefundCall =
  (webhook: SandboxWebhook): RefundCall =>
  async (refund) => {
    const body = JSON.stringify(
      sandboxRefundApproved({
        transactionId: refund.transactionId,
        customerId: sandboxCustomerId(refund.userId),
        reason: refund.reason,
        lines: refund.lines.map((l) => ({ itemId: l.item_id, amountCents: l.cents })),
      }),
    );
    const delivered = await webhook.deliver(body, signPaddleBody(body, webhook.secret));
    if (delivered.statusCode !== 200)
      throw new Error(`The sandbox webhook answered ${delivered.statusCode}: ${delivered.body}`);
    return {};
  };

export type SandboxWebhook = {
  secret: string;
  deliver: (body: string, signature: string) => Promise<{ statusCode: number; body: string }>;
};

/**
 * Plans an owner's refund and reserves the order for it, in a short transaction of its own: a second
 * refund of the order waits (409) until the provider has answered this one, while payments, refunds
 * from the provider and the owner's other work go on. Answers the reservation (its time, as text to
 * keep microseconds) with the plan.
 */
async function reserveRefund(
  db: Database,
  request: { publicId: string; kitIds: number[] | undefined; reason: string },
): Promise<{ refund: ReservedRefund; reservation: string }> {
  return db.transaction(async (tx) => {
    const order = await findOrder(tx, request.publicId, true);
    if (!order) throw new AppError('not_found', `No order ${request.publicId.slice(0, 80)}.`);
    const plan = await planRefund(tx, order, request.kitIds);
    const { rows } = await tx.execute<{ reserved_at: string }>(sql`
      UPDATE orders SET refund_reserved_at = clock_timestamp()
       WHERE id = ${order.id}
         AND (refund_reserved_at IS NULL OR refund_reserved_at < clock_timestamp() - ${RESERVATION_LIFETIME})
      RETURNING refund_reserved_at::text AS reserved_at`);
    if (!rows[0])
      throw new AppError(
        'conflict',
        `A refund of order ${order.public_id} is being sent to the payment provider: try again in a minute.`,
      );
    return {
      refund: { ...plan, orderId: order.public_id, userId: order.user_id, reason: request.reason },
      reservation: rows[0].reserved_at,
    };
  });
}

/** Ends this reservation (not a later one that found it stale). */
async function releaseRefund(db: Reader, publicId: string, reservation: string): Promise<void> {
  await db.execute(sql`
    UPDATE orders SET refund_reserved_at = NULL
     WHERE public_id = ${publicId} AND refund_reserved_at = ${reservation}::timestamptz`);
}

/**
 * An owner's refund of an order (all its open lines, or the kits named), in three steps so that no
 * row stays locked while the provider is asked: reserve the order and plan the refund; call the
 * provider, outside any transaction; then release the reservation and `record` what was asked
 * (the activity log) in one transaction. When the provider fails, the reservation is released and
 * nothing else has changed: the owner can try again. The lines and kits change only when the
 * provider's approved refund arrives by webhook.
 */
export async function refundOrder(
  db: Database,
  request: { publicId: string; kitIds: number[] | undefined; reason: string },
  call: RefundCall,
  record: (tx: Reader, refund: ReservedRefund, answer: { adjustmentId?: string }) => Promise<void>,
): Promise<ReservedRefund> {
  const { refund, reservation } = await reserveRefund(db, request);
  let answer: { adjustmentId?: string };
  try {
    answer = await call(refund);
  } catch (error) {
    await releaseRefund(db, refund.orderId, reservation);
    throw error;
  }
  await db.transaction(async (tx) => {
    await releaseRefund(tx, refund.orderId, reservation);
    await record(tx, refund, answer);
  });
  return refund;
}
