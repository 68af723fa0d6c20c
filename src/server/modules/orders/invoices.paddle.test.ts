import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, deliverWebhook, signedInClient } from '../../../../tests/setup/client.ts';
import { startPaddleApi } from '../../../../tests/setup/paddle-api.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import {
  sandboxCustomerId,
  sandboxRefundApproved,
  sandboxTransactionCompleted,
} from '../../integrations/payments/sandbox.ts';

/**
 * Invoices with PAYMENT_PROVIDER=paddle: Paddle issues them, so `Invoice` redirects to the link
 * Paddle's API gives (the stand-in checks the key and the path), and business details after payment
 * are Paddle's one revision of the transaction.
 */

const WEBHOOK_SECRET = 'pdl_ntfset_test_secret';
const API_KEY = 'pdl_sdbx_apikey_test';

let paddleApi: Awaited<ReturnType<typeof startPaddleApi>>;
let t: TestApp;
let owner: Client;
let kits: { id: number; price_cents: number }[];

beforeAll(async () => {
  paddleApi = await startPaddleApi(API_KEY);
  t = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    OWNER_EMAILS: 'owner@shop.test',
    PAYMENT_PROVIDER: 'paddle',
    PADDLE_CLIENT_TOKEN: 'test_client_token',
    PADDLE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PADDLE_API_KEY: API_KEY,
    PADDLE_API_URL: paddleApi.url,
  });
  kits = (await t.pool.query('SELECT id, price_cents FROM kits ORDER BY position')).rows;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'owner@shop.test' }));
});
afterAll(async () => {
  await t.close();
  await paddleApi.close();
});

const deliver = (event: object) => deliverWebhook(t.app, event, WEBHOOK_SECRET);

/** A buyer whose order Paddle's signed `transaction.completed` paid. */
async function paidBuyer(kitIds: number[]) {
  const { client, user } = await signedInClient(t.app, t.pool);
  const orderId = (await client.post('/api/cart', { products: kitIds, checkout: true })).json().order_id as string;
  const { rows } = await t.pool.query(
    'SELECT i.kit_id AS "kitId", i.paddle_price_id AS "paddlePriceId", i.price_cents AS "priceCents" FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.public_id = $1 ORDER BY i.id',
    [orderId],
  );
  const paid = sandboxTransactionCompleted({ publicId: orderId, userId: user.id, items: rows });
  expect((await deliver(paid)).json().outcome).toBe('fulfilled');
  return { client, user, orderId, transactionId: paid.data.id };
}

describe('Paddle’s invoices', () => {
  it('redirects Invoice to the link Paddle gives for the transaction, never cached', async () => {
    const { client, orderId, transactionId } = await paidBuyer([kits[0]!.id]);
    paddleApi.seen.length = 0;
    const res = await client.get(`/api/orders/${orderId}/invoice`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      `https://sandbox-invoice.paddle.test/${transactionId}.pdf?disposition=attachment&token=${transactionId.slice(4)}`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(paddleApi.seen).toEqual([
      {
        method: 'GET',
        url: `/transactions/${transactionId}/invoice?disposition=attachment`,
        auth: `Bearer ${API_KEY}`,
        body: '',
      },
    ]);
    // The owner gets the same document through the console.
    expect((await owner.get(`/api/admin/orders/${orderId}/invoice`)).headers.location).toBe(res.headers.location);
  });

  it('answers a clear message, not a 5xx, when Paddle cannot give the invoice', async () => {
    const { client, orderId, transactionId } = await paidBuyer([kits[0]!.id]);
    paddleApi.forget(transactionId);
    const res = await client.get(`/api/orders/${orderId}/invoice`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `Paddle could not give the invoice right now (Paddle answered 404: Entity ${transactionId} not found). Please try again.`,
    );
  });

  it('redirects a refund’s credit note to Paddle’s', async () => {
    const { client, user, orderId, transactionId } = await paidBuyer([kits[0]!.id]);
    const line = (
      await t.pool.query(
        'SELECT transaction_item_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.public_id = $1',
        [orderId],
      )
    ).rows[0].transaction_item_id;
    const refund = sandboxRefundApproved({
      transactionId,
      customerId: sandboxCustomerId(user.id),
      reason: 'Twice',
      lines: [{ itemId: line, amountCents: kits[0]!.price_cents }],
    });
    expect((await deliver(refund)).statusCode).toBe(200);
    const order = (await client.get('/api/orders')).json().items[0];
    expect(order.status).toBe('refunded');
    const res = await client.get(order.credit_notes[0].url);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(
      /^https:\/\/sandbox-invoice\.paddle\.test\/adj_[a-z0-9]+\.pdf\?disposition=attachment/,
    );
  });

  it('sends business details to Paddle as its one revision, and shows Paddle’s refusal of another', async () => {
    const { client, orderId, transactionId } = await paidBuyer([kits[0]!.id]);
    paddleApi.seen.length = 0;
    const added = await client.post(`/api/orders/${orderId}/business`, {
      company_name: 'Analytical Engines GmbH',
      vat_id: 'DE123456789',
      country: 'DE',
      address_line: 'Unter den Linden 1',
      city: 'Berlin',
    });
    expect(added.statusCode).toBe(200);
    expect(paddleApi.seen).toEqual([
      {
        method: 'POST',
        url: `/transactions/${transactionId}/revise`,
        auth: `Bearer ${API_KEY}`,
        body: {
          business: { name: 'Analytical Engines GmbH', tax_identifier: 'DE123456789' },
          address: { first_line: 'Unter den Linden 1', city: 'Berlin' },
        },
      },
    ]);
    // The shop asks Paddle once per order.
    const again = await client.post(`/api/orders/${orderId}/business`, { company_name: 'Other', country: 'DE' });
    expect(again.statusCode).toBe(409);
    expect(paddleApi.seen).toHaveLength(1);

    // Revised elsewhere already (Paddle's dashboard): Paddle's own words, and the order stays open to try.
    const other = await paidBuyer([kits[0]!.id]);
    paddleApi.markRevised(other.transactionId);
    const refused = await other.client.post(`/api/orders/${other.orderId}/business`, {
      company_name: 'Hopper & Co',
      country: 'US',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("Paddle refused the revision: You can't revise an already revised transaction");
    const order = (await other.client.get('/api/orders')).json().items[0];
    expect(order).toMatchObject({ business: null, can_add_business: true });
  });
});
