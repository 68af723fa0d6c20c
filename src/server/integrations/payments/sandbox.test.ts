import {
  type AdjustmentCreatedEvent,
  type IAdjustmentNotificationResponse,
  type ITransactionNotificationResponse,
  Paddle,
  type TransactionCompletedEvent,
} from '@paddle/paddle-node-sdk';
import { describe, expect, it } from 'vitest';
import { readPaddleEvent } from './events.ts';
import { sandboxRefundApproved, sandboxTransactionCompleted, sandboxWebhookSecret } from './sandbox.ts';
import { signPaddleBody } from './signature.ts';

// Paddle's own Node SDK, as an independent reader of what the sandbox sends: its types name every
// field Paddle always sends (checked by the compiler below), and `unmarshal` checks the signature
// and builds its entities from the body (a missing object or array fails there).
const paddle = new Paddle('pdl_sdbx_apikey_sandbox_check_only');
const secret = sandboxWebhookSecret('test-secret-test-secret-test-secret');

/** Signs a body as the sandbox does and reads it with the SDK. */
async function unmarshal(event: object) {
  const body = JSON.stringify(event);
  return paddle.webhooks.unmarshal(body, secret, signPaddleBody(body, secret));
}

const payment = () =>
  sandboxTransactionCompleted({
    publicId: 'ord_sdk',
    userId: 7,
    items: [
      { kitId: 1, title: 'Alpha Kit', paddlePriceId: 'pri_alpha', priceCents: 4900 },
      // A bundle at its upgrade price, 10.00 off by a code.
      { kitId: 3, title: 'Duo Bundle', paddlePriceId: 'pri_upgrade', priceCents: 1500, listPriceCents: 2500 },
    ],
  });

describe('the sandbox’s payment events, read by Paddle’s Node SDK', () => {
  it('types every field of transaction.completed and adjustment.created that Paddle always sends', () => {
    const data: ITransactionNotificationResponse = payment().data;
    const refund: IAdjustmentNotificationResponse = sandboxRefundApproved({
      transactionId: data.id,
      customerId: 'ctm_sandbox7',
      reason: 'duplicate',
      lines: [{ itemId: 'txnitm_1', amountCents: 100, partial: true }],
    }).data;
    expect([data.items.length, refund.items.length]).toEqual([2, 1]);
  });

  it('parses a sandbox payment, with its quantities, tax rates and payment', async () => {
    const sent = payment();
    const event = (await unmarshal(sent)) as TransactionCompletedEvent;
    expect(event.eventType).toBe('transaction.completed');
    expect(event.eventId).toBe(sent.event_id);
    const t = event.data;
    expect(t.customData).toEqual({ order_id: 'ord_sdk' });
    expect(t.items.map((i) => [i.price?.id, i.price?.unitPrice.amount, i.price?.quantity, i.quantity])).toEqual([
      ['pri_alpha', '4900', { minimum: 1, maximum: 1 }, 1],
      ['pri_upgrade', '2500', { minimum: 1, maximum: 1 }, 1],
    ]);
    expect(t.details?.taxRatesUsed.map((r) => r.taxRate)).toEqual(['0']);
    expect(t.details?.totals).toMatchObject({ subtotal: '7400', discount: '1000', tax: '0', total: '6400' });
    expect(t.details?.lineItems.map((l) => [l.priceId, l.totals?.total, l.product?.name])).toEqual([
      ['pri_alpha', '4900', 'Alpha Kit'],
      ['pri_upgrade', '1500', 'Duo Bundle'],
    ]);
    expect(t.payments).toHaveLength(1);
    expect(t.payments[0]).toMatchObject({ amount: '6400', status: 'captured' });
    expect(t.payments[0]!.methodDetails?.card?.last4).toBe('4242');
    // The shop's own reader agrees.
    const read = readPaddleEvent(sent).event;
    expect(read).toMatchObject({ kind: 'payment_completed', paidCents: 6400, discountCents: 1000 });
  });

  it('parses a sandbox refund, in full and in part, as the shop reads it', async () => {
    const paid = payment();
    const [alpha, upgrade] = paid.data.details.line_items;
    const sent = sandboxRefundApproved({
      transactionId: paid.data.id,
      customerId: paid.data.customer_id,
      reason: 'duplicate',
      lines: [
        { itemId: alpha!.id, amountCents: 4900 },
        { itemId: upgrade!.id, amountCents: 100, partial: true },
      ],
    });
    const event = (await unmarshal(sent)) as AdjustmentCreatedEvent;
    expect(event.eventType).toBe('adjustment.created');
    const a = event.data;
    expect([a.action, a.status, a.transactionId, a.customerId]).toEqual([
      'refund',
      'approved',
      paid.data.id,
      'ctm_sandbox7',
    ]);
    expect(a.items.map((i) => [i.itemId, i.type, i.amount, i.totals?.subtotal])).toEqual([
      [alpha!.id, 'full', '4900', '4900'],
      [upgrade!.id, 'partial', '100', '100'],
    ]);
    expect(a.totals).toMatchObject({ subtotal: '5000', total: '5000', currencyCode: 'USD' });
    expect(readPaddleEvent(sent).event).toMatchObject({
      kind: 'payment_reversed',
      adjustmentId: a.id,
      whole: false,
      items: [
        { itemId: alpha!.id, cents: 'full' },
        { itemId: upgrade!.id, cents: 100 },
      ],
    });
  });

  it('refuses what the sandbox signed with another secret', async () => {
    const body = JSON.stringify(payment());
    await expect(paddle.webhooks.unmarshal(body, secret, signPaddleBody(body, 'another secret'))).rejects.toThrow(
      /signature/,
    );
  });
});
