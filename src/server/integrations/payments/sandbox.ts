import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/** The sandbox's webhook secret, derived from the cookie secret so every instance agrees on it. */
export const sandboxWebhookSecret = (cookieSecret: string) =>
  createHmac('sha256', cookieSecret).update('kitshop sandbox webhook').digest('hex');

export const SANDBOX_CARDS = { paid: '4242424242424242', declined: '4000000000000002' } as const;

const id = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex')}`;

/** The sandbox's Paddle customer id for a buyer. */
export const sandboxCustomerId = (userId: number) => `ctm_sandbox${userId}`;

/**
 * A `transaction.completed` event in Paddle Billing's format for a sandbox payment, so it travels
 * the same webhook path (signature, parsing, checks, fulfilment) as a real one. Every field Paddle
 * always sends is there (as Paddle's Node SDK reads them), with the sandbox's values: no tax, no
 * fee, a test card.
 */
export function sandboxTransactionCompleted(order: {
  publicId: string;
  userId: number;
  /** `listPriceCents`: the unit price before a code (the price when absent); `priceCents`: what is paid. */
  items: { kitId: number; title?: string; paddlePriceId: string; priceCents: number; listPriceCents?: number }[];
}) {
  const now = new Date().toISOString();
  const unit = (item: { priceCents: number; listPriceCents?: number }) => item.listPriceCents ?? item.priceCents;
  const subtotal = order.items.reduce((sum, i) => sum + unit(i), 0);
  const paid = order.items.reduce((sum, i) => sum + i.priceCents, 0);
  const discount = subtotal - paid;
  const lines = order.items.map((item) => ({ id: id('txnitm'), item }));
  const product = (item: { kitId: number; title?: string }) => ({
    id: `pro_sandbox${item.kitId}`,
    name: item.title ?? `Kit ${item.kitId}`,
    type: 'standard' as const,
    description: null,
    tax_category: 'standard' as const,
    image_url: null,
    custom_data: null,
    status: 'active' as const,
    import_meta: null,
    created_at: now,
    updated_at: now,
  });
  const totals = (before: number, off: number) => ({
    subtotal: String(before),
    discount: String(off),
    tax: '0',
    total: String(before - off),
  });
  const money = { fee: '0', earnings: String(paid), currency_code: 'USD' as const };
  // The transaction's totals, which its payout totals repeat (no credit, balance or tax here).
  const transactionTotals = {
    ...totals(subtotal, discount),
    credit: '0',
    credit_to_balance: '0',
    balance: '0',
    grand_total: String(paid),
    grand_total_tax: '0',
    ...money,
  };
  return {
    event_id: id('evt'),
    event_type: 'transaction.completed',
    occurred_at: now,
    notification_id: id('ntf'),
    data: {
      id: id('txn'),
      status: 'completed' as const,
      customer_id: sandboxCustomerId(order.userId),
      address_id: null,
      business_id: null,
      custom_data: { order_id: order.publicId },
      origin: 'web' as const,
      collection_mode: 'automatic' as const,
      subscription_id: null,
      invoice_id: null,
      invoice_number: null,
      billing_details: null,
      billing_period: null,
      currency_code: 'USD' as const,
      discount_id: null,
      created_at: now,
      updated_at: now,
      billed_at: now,
      revised_at: null,
      items: lines.map(({ item }) => ({
        price: {
          id: item.paddlePriceId,
          product_id: `pro_sandbox${item.kitId}`,
          description: item.title ?? `Kit ${item.kitId}`,
          type: 'standard' as const,
          name: item.title ?? `Kit ${item.kitId}`,
          billing_cycle: null,
          trial_period: null,
          tax_mode: 'account_setting' as const,
          unit_price: { amount: String(unit(item)), currency_code: 'USD' as const },
          unit_price_overrides: [],
          quantity: { minimum: 1, maximum: 1 },
          status: 'active' as const,
          custom_data: null,
          import_meta: null,
          created_at: now,
          updated_at: now,
        },
        quantity: 1,
        proration: null,
      })),
      details: {
        tax_rates_used: [{ tax_rate: '0', totals: totals(subtotal, discount) }],
        totals: transactionTotals,
        adjusted_totals: {
          subtotal: String(paid),
          tax: '0',
          total: String(paid),
          grand_total: String(paid),
          grand_total_tax: '0',
          ...money,
          retained_fee: '0',
        },
        payout_totals: {
          ...transactionTotals,
          exchange_rate: '1.0',
          fee_rate: '0',
        },
        adjusted_payout_totals: null,
        line_items: lines.map(({ id: lineId, item }) => ({
          id: lineId,
          price_id: item.paddlePriceId,
          quantity: 1,
          proration: null,
          tax_rate: '0',
          unit_totals: totals(unit(item), unit(item) - item.priceCents),
          totals: totals(unit(item), unit(item) - item.priceCents),
          product: product(item),
        })),
      },
      payments: [
        {
          payment_attempt_id: randomUUID(),
          stored_payment_method_id: randomUUID(),
          payment_method_id: id('paymtd'),
          amount: String(paid),
          status: 'captured' as const,
          error_code: null,
          method_details: {
            type: 'card' as const,
            card: {
              type: 'visa' as const,
              last4: SANDBOX_CARDS.paid.slice(-4),
              expiry_month: 12,
              expiry_year: new Date().getUTCFullYear() + 3,
              cardholder_name: 'Sandbox test card',
            },
            paypal: null,
            south_korea_local_card: null,
            underlying_details: null,
          },
          created_at: now,
          captured_at: now,
        },
      ],
      checkout: { url: null },
    },
  };
}

/**
 * An approved refund in Paddle Billing's `adjustment.created` format for a sandbox order, so a
 * refund from the owner console travels the same webhook path as one Paddle sends. Lines are the
 * provider's line ids (`txnitm_...`), each refunded in full unless `partial` (then by its amount).
 */
export function sandboxRefundApproved(refund: {
  transactionId: string;
  customerId: string;
  reason: string;
  lines: { itemId: string; amountCents: number; partial?: boolean }[];
}) {
  const now = new Date().toISOString();
  const total = refund.lines.reduce((sum, l) => sum + l.amountCents, 0);
  const money = (cents: number) => ({
    subtotal: String(cents),
    tax: '0',
    total: String(cents),
    fee: '0',
    // No fee in the sandbox: earnings (subtotal less fee) are the subtotal.
    earnings: String(cents),
    currency_code: 'USD' as const,
  });
  return {
    event_id: id('evt'),
    event_type: 'adjustment.created',
    occurred_at: now,
    notification_id: id('ntf'),
    data: {
      id: id('adj'),
      action: 'refund' as const,
      // Lines named one by one: Paddle's `full` type is the transaction's grand total.
      type: 'partial' as const,
      status: 'approved' as const,
      transaction_id: refund.transactionId,
      subscription_id: null,
      customer_id: refund.customerId,
      reason: refund.reason,
      credit_applied_to_balance: false,
      currency_code: 'USD' as const,
      created_at: now,
      updated_at: now,
      items: refund.lines.map((line) => ({
        id: id('adjitm'),
        item_id: line.itemId,
        type: line.partial ? ('partial' as const) : ('full' as const),
        amount: String(line.amountCents),
        proration: null,
        totals: money(line.amountCents),
      })),
      totals: { ...money(total), retained_fee: '0' },
      payout_totals: { ...money(total), retained_fee: '0' },
    },
  };
}
