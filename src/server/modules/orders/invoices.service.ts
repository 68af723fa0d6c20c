import { sql } from 'drizzle-orm';
import type { BusinessDetails } from '../../../common/schemas/orders.ts';
import type { Database, Reader } from '../../db/open.ts';
import type { OrderBusiness } from '../../db/schema/orders.ts';
import { AppError } from '../../http/errors.ts';

/** The orders a buyer sees under Orders and their documents (only orders' own tables). */

export type DocumentSeries = 'invoice' | 'credit_note';

/** A refund as one document: the provider's adjustment, its time, what it gave back and of which lines. */
export type OrderRefund = {
  adjustment_id: string;
  at: string;
  cents: number;
  lines: { title: string; cents: number }[];
};

export type DocumentOrder = {
  id: number;
  public_id: string;
  user_id: number;
  status: 'paid' | 'partially_refunded' | 'refunded';
  currency: string;
  total_cents: number;
  discount_cents: number;
  paid_at: string;
  transaction_id: string | null;
  business: OrderBusiness | null;
  business_added_at: string | null;
  lines: { kit_id: number; title: string; price_cents: number; list_price_cents: number }[];
  refunds: OrderRefund[];
};

/** Paid orders (refunded ones too): the states that have an invoice. */
const INVOICED = sql`o.paid_at IS NOT NULL AND o.status IN ('paid', 'partially_refunded', 'refunded')`;

const DOCUMENT_COLUMNS = sql`o.id, o.public_id, o.user_id, o.status, o.currency, o.total_cents, o.discount_cents,
  o.paid_at, o.transaction_id, o.business, o.business_added_at,
  COALESCE((SELECT json_agg(json_build_object('kit_id', i.kit_id, 'title', i.title, 'price_cents', i.price_cents,
            'list_price_cents', i.list_price_cents) ORDER BY i.id)
     FROM order_items i WHERE i.order_id = o.id), '[]') AS lines,
  COALESCE((SELECT json_agg(r ORDER BY r.at, r.adjustment_id) FROM (
     SELECT r.adjustment_id, min(r.created_at) AS at, sum(r.cents)::int AS cents,
            json_agg(json_build_object('title', i.title, 'cents', r.cents) ORDER BY i.id) AS lines
       FROM order_items i JOIN order_refunds r ON r.item_id = i.id
      WHERE i.order_id = o.id GROUP BY r.adjustment_id) r), '[]') AS refunds`;

/** The buyer's paid and refunded orders, newest first (at most 200), with lines and refunds. */
export async function buyerInvoicedOrders(db: Reader, userId: number): Promise<DocumentOrder[]> {
  const { rows } = await db.execute<DocumentOrder>(sql`
    SELECT ${DOCUMENT_COLUMNS} FROM orders o
     WHERE o.user_id = ${userId} AND ${INVOICED}
     ORDER BY o.created_at DESC, o.id DESC LIMIT 200`);
  return rows;
}

/** One paid order by its public id: the buyer's own when `userId` is given (else any, for an owner). */
export async function findInvoicedOrder(
  db: Reader,
  publicId: string,
  userId?: number,
): Promise<DocumentOrder | undefined> {
  const { rows } = await db.execute<DocumentOrder>(sql`
    SELECT ${DOCUMENT_COLUMNS} FROM orders o
     WHERE o.public_id = ${publicId} AND ${INVOICED} ${userId === undefined ? sql`` : sql`AND o.user_id = ${userId}`}`);
  return rows[0];
}

export const documentNumber = (series: DocumentSeries, number: number) =>
  `${series === 'invoice' ? 'INV' : 'CN'}-${String(number).padStart(6, '0')}`;

/**
 * The number of an order's invoice (no `adjustmentId`) or of a refund's credit note, given the first
 * time it is asked for and the same ever after. The order row is locked first, so two requests for
 * one document wait for each other; the series' counter row is taken in the same transaction, so a
 * rolled-back issue gives its number back and the series has no gaps.
 */
export async function issueDocument(
  db: Database,
  orderId: number,
  series: DocumentSeries,
  adjustmentId = '',
): Promise<{ number: string; issuedAt: string }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM orders WHERE id = ${orderId} FOR UPDATE`);
    const existing = await tx.execute<{ number: number; issued_at: string }>(sql`
      SELECT number, issued_at FROM order_documents
       WHERE order_id = ${orderId} AND series = ${series} AND adjustment_id = ${adjustmentId}`);
    const found = existing.rows[0];
    if (found) return { number: documentNumber(series, found.number), issuedAt: found.issued_at };
    const { rows } = await tx.execute<{ number: number; issued_at: string }>(sql`
      WITH next AS (UPDATE document_counters SET last = last + 1 WHERE series = ${series} RETURNING last)
      INSERT INTO order_documents (series, number, order_id, adjustment_id)
      SELECT ${series}, next.last, ${orderId}, ${adjustmentId} FROM next
      RETURNING number, issued_at`);
    const issued = rows[0]!;
    return { number: documentNumber(series, issued.number), issuedAt: issued.issued_at };
  });
}

/**
 * Business details for an order: before paying (the checkout's `Buying for a business`), as often as
 * the buyer changes them; after paying, once (`revise` is the provider's part, e.g. Paddle's revision,
 * called with the order locked-out from a second try by `business_added_at`). Answers whether the
 * details were added after payment.
 */
export async function saveBusinessDetails(
  db: Database,
  publicId: string,
  userId: number,
  details: BusinessDetails,
  revise: (order: { transactionId: string | null }) => Promise<void>,
): Promise<{ afterPayment: boolean }> {
  const business: OrderBusiness = details;
  const { rows } = await db.execute<{
    id: number;
    status: string;
    paid_at: string | null;
    transaction_id: string | null;
    business: OrderBusiness | null;
    business_added_at: string | null;
  }>(sql`
    SELECT id, status, paid_at, transaction_id, business, business_added_at FROM orders
     WHERE public_id = ${publicId} AND user_id = ${userId}`);
  const order = rows[0];
  if (!order) throw new AppError('not_found', 'We could not find that order.');
  if (order.status === 'pending') {
    await db.execute(sql`UPDATE orders SET business = ${JSON.stringify(business)}::jsonb
                          WHERE id = ${order.id} AND status = 'pending'`);
    return { afterPayment: false };
  }
  if (!order.paid_at || order.status === 'flagged')
    throw new AppError('conflict', 'Business details can be added to a paid order only.');
  if (order.business_added_at || order.business)
    throw new AppError('conflict', 'This order has business details already: they can be added once.');
  // Claimed before the provider is asked, so a second click cannot revise twice; given back on failure.
  const claimed = await db.execute(sql`
    UPDATE orders SET business_added_at = now()
     WHERE id = ${order.id} AND business_added_at IS NULL AND business IS NULL RETURNING id`);
  if (claimed.rows.length === 0)
    throw new AppError('conflict', 'This order has business details already: they can be added once.');
  try {
    await revise({ transactionId: order.transaction_id });
  } catch (error) {
    await db.execute(sql`UPDATE orders SET business_added_at = NULL WHERE id = ${order.id}`);
    throw error;
  }
  await db.execute(sql`UPDATE orders SET business = ${JSON.stringify(business)}::jsonb WHERE id = ${order.id}`);
  return { afterPayment: true };
}

/** Takes the business details off a pending order (the checkout's switch turned off before paying). */
export async function clearPendingBusiness(db: Reader, publicId: string, userId: number): Promise<void> {
  const { rows } = await db.execute<{ status: string }>(sql`
    SELECT status FROM orders WHERE public_id = ${publicId} AND user_id = ${userId}`);
  if (!rows[0]) throw new AppError('not_found', 'We could not find that order.');
  if (rows[0].status !== 'pending')
    throw new AppError('conflict', 'A paid order keeps its business details: they go on its invoice.');
  await db.execute(sql`UPDATE orders SET business = NULL
                        WHERE public_id = ${publicId} AND user_id = ${userId} AND status = 'pending'`);
}
