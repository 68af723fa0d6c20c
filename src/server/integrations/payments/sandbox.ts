import { createHmac, randomBytes } from 'node:crypto';

/** The sandbox's webhook secret, derived from the cookie secret so every instance agrees on it. */
export const sandboxWebhookSecret = (cookieSecret: string) =>
  createHmac('sha256', cookieSecret).update('kitshop sandbox webhook').digest('hex');

export const SANDBOX_CARDS = { paid: '4242424242424242', declined: '4000000000000002' } as const;

const id = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex')}`;

/**
 * A `transaction.completed` event in Paddle Billing's format for a sandbox payment, so it travels
 * the same webhook path (signature, parsing, checks, fulfilment) as a real one.
 */
export function sandboxTransactionCompleted(order: {
  publicId: string;
  userId: number;
  /** `listPriceCents`: the unit price before a code (the price when absent); `priceCents`: what is paid. */
  items: { kitId: number; paddlePriceId: string; priceCents: number; listPriceCents?: number }[];
}) {
  const now = new Date().toISOString();
  const unit = (item: { priceCents: number; listPriceCents?: number }) => item.listPriceCents ?? item.priceCents;
  const subtotal = order.items.reduce((sum, i) => sum + unit(i), 0);
  const paid = order.items.reduce((sum, i) => sum + i.priceCents, 0);
  const discount = subtotal - paid;
  const lines = order.items.map((item) => ({ id: id('txnitm'), item }));
  return {
    event_id: id('evt'),
    event_type: 'transaction.completed',
    occurred_at: now,
    notification_id: id('ntf'),
    data: {
      id: id('txn'),
      status: 'completed',
      customer_id: `ctm_sandbox${order.userId}`,
      origin: 'web',
      collection_mode: 'automatic',
      currency_code: 'USD',
      custom_data: { order_id: order.publicId },
      created_at: now,
      updated_at: now,
      billed_at: now,
      items: lines.map(({ item }) => ({
        price: {
          id: item.paddlePriceId,
          product_id: `pro_sandbox${item.kitId}`,
          unit_price: { amount: String(unit(item)), currency_code: 'USD' },
        },
        quantity: 1,
      })),
      details: {
        totals: {
          subtotal: String(subtotal),
          tax: '0',
          discount: String(discount),
          total: String(paid),
          currency_code: 'USD',
        },
        line_items: lines.map(({ id: lineId, item }) => ({
          id: lineId,
          price_id: item.paddlePriceId,
          quantity: 1,
          totals: {
            subtotal: String(unit(item)),
            tax: '0',
            discount: String(unit(item) - item.priceCents),
            total: String(item.priceCents),
          },
        })),
      },
    },
  };
}

/**
 * An approved refund in Paddle Billing's `adjustment.created` format for a sandbox order, so a
 * refund from the owner console travels the same webhook path as one Paddle sends. Lines are the
 * provider's line ids (`txnitm_...`); every line named is refunded in full.
 */
export function sandboxRefundApproved(refund: {
  transactionId: string;
  reason: string;
  lines: { itemId: string; amountCents: number }[];
}) {
  const now = new Date().toISOString();
  const total = refund.lines.reduce((sum, l) => sum + l.amountCents, 0);
  return {
    event_id: id('evt'),
    event_type: 'adjustment.created',
    occurred_at: now,
    notification_id: id('ntf'),
    data: {
      id: id('adj'),
      action: 'refund',
      status: 'approved',
      transaction_id: refund.transactionId,
      reason: refund.reason,
      currency_code: 'USD',
      created_at: now,
      updated_at: now,
      items: refund.lines.map((line) => ({
        item_id: line.itemId,
        type: 'full',
        amount: String(line.amountCents),
      })),
      totals: { subtotal: String(total), tax: '0', total: String(total), currency_code: 'USD' },
    },
  };
}
