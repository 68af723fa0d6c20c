import { z } from 'zod';

/**
 * Paddle Billing's webhook events, read into the shop's own small set of events. Only the fields
 * the shop relies on are checked and read (unknown keys are dropped from what is read, not
 * copied); the payload itself is stored as received.
 */
const Money = z.object({ amount: z.string().regex(/^-?\d+$/), currency_code: z.string() });

const TransactionData = z.object({
  id: z.string().min(1),
  status: z.string(),
  currency_code: z.string(),
  custom_data: z.object({ order_id: z.string().optional() }).nullable().optional(),
  items: z.array(z.object({ price: z.object({ id: z.string(), unit_price: Money }), quantity: z.number().int() })),
  details: z
    .object({
      totals: z.object({ subtotal: z.string().regex(/^-?\d+$/), discount: z.string().regex(/^-?\d+$/) }).optional(),
      line_items: z.array(z.object({ id: z.string(), price_id: z.string(), quantity: z.number().int() })).optional(),
    })
    .optional(),
});

const Cents = z.string().regex(/^\d{1,12}$/);

const AdjustmentData = z.object({
  id: z.string().min(1),
  action: z.string(),
  status: z.string(),
  transaction_id: z.string().min(1),
  /** `full`: the transaction's grand total, whatever its items say. */
  type: z.string().optional(),
  items: z
    .array(
      z.object({
        item_id: z.string(),
        type: z.string(),
        /** What a `partial` item gives back, tax included. */
        amount: Cents.nullish(),
        /** Paddle's split of it: `subtotal` is the part before tax. */
        totals: z.object({ subtotal: Cents }).nullish(),
      }),
    )
    .default([]),
});

const Envelope = z.object({
  event_id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(100),
  occurred_at: z.string().optional(),
  data: z.unknown(),
});

export type PaymentCompleted = {
  kind: 'payment_completed';
  transactionId: string;
  orderPublicId: string | undefined;
  currency: string;
  /** What was charged before tax (Paddle's `details.totals.subtotal - discount`), in cents. */
  paidCents: number;
  /** What a discount took off, in cents (`details.totals.discount`). */
  discountCents: number;
  lines: { priceId: string; quantity: number; unitPriceCents: number; currency: string; transactionItemId?: string }[];
};
export type PaymentReversed = {
  kind: 'payment_reversed';
  adjustmentId: string;
  reason: 'refund' | 'chargeback';
  transactionId: string;
  /** Every line of the transaction, in full (no items named, or an adjustment of type `full`). */
  whole: boolean;
  /**
   * The lines named, by the provider's line id: `full`, or what was given back before tax, in cents
   * (0 for a refund of tax alone).
   */
  items: { itemId: string; cents: number | 'full' }[];
};
export type ShopPaymentEvent = PaymentCompleted | PaymentReversed | { kind: 'other' };
export type ReceivedEvent = { eventId: string; eventType: string; event: ShopPaymentEvent };

export class EventFormatError extends Error {}

/** What an adjustment item gives back before tax, as the order's prices are kept; `full` for the whole line. */
function itemCents(item: z.output<typeof AdjustmentData>['items'][number]): number | 'full' {
  if (item.type === 'full') return 'full';
  if (item.type === 'tax') return 0;
  const cents = item.totals?.subtotal ?? item.amount;
  if (cents == null) throw new EventFormatError('A partial adjustment item carries no amount.');
  return Number(cents);
}

export function readPaddleEvent(payload: unknown): ReceivedEvent {
  const envelope = Envelope.safeParse(payload);
  if (!envelope.success) throw new EventFormatError('The event is not in Paddle’s format.');
  const { event_id: eventId, event_type: eventType, data } = envelope.data;
  if (eventType === 'transaction.completed') {
    const parsed = TransactionData.safeParse(data);
    if (!parsed.success) throw new EventFormatError('The transaction in this event is not in Paddle’s format.');
    const t = parsed.data;
    const lineIds = t.details?.line_items ?? [];
    const totals = t.details?.totals;
    const listed = t.items.reduce((sum, i) => sum + Number(i.price.unit_price.amount) * i.quantity, 0);
    const subtotal = totals ? Number(totals.subtotal) : listed;
    const discount = totals ? Number(totals.discount) : 0;
    return {
      eventId,
      eventType,
      event: {
        kind: 'payment_completed',
        transactionId: t.id,
        orderPublicId: t.custom_data?.order_id,
        currency: t.currency_code,
        paidCents: subtotal - discount,
        discountCents: discount,
        lines: t.items.map((item) => ({
          priceId: item.price.id,
          quantity: item.quantity,
          unitPriceCents: Number(item.price.unit_price.amount),
          currency: item.price.unit_price.currency_code,
          transactionItemId: lineIds.find((l) => l.price_id === item.price.id)?.id,
        })),
      },
    };
  }
  if (eventType === 'adjustment.created' || eventType === 'adjustment.updated') {
    const parsed = AdjustmentData.safeParse(data);
    if (!parsed.success) throw new EventFormatError('The adjustment in this event is not in Paddle’s format.');
    const a = parsed.data;
    if (a.status === 'approved' && (a.action === 'refund' || a.action === 'chargeback')) {
      return {
        eventId,
        eventType,
        event: {
          kind: 'payment_reversed',
          adjustmentId: a.id,
          reason: a.action,
          transactionId: a.transaction_id,
          whole: a.type === 'full' || a.items.length === 0,
          items: a.items.map((i) => ({ itemId: i.item_id, cents: itemCents(i) })),
        },
      };
    }
  }
  return { eventId, eventType, event: { kind: 'other' } };
}
