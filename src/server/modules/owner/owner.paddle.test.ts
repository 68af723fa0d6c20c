import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, deliverWebhook, signedInClient } from '../../../../tests/setup/client.ts';
import { startPaddleApi } from '../../../../tests/setup/paddle-api.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { sandboxTransactionCompleted } from '../../integrations/payments/sandbox.ts';

/**
 * Refunds with PAYMENT_PROVIDER=paddle: the console asks Paddle's API (a local stand-in here that
 * checks the documented request shape and the API key) and access goes only when Paddle's signed,
 * approved adjustment arrives at the webhook.
 */

const WEBHOOK_SECRET = 'pdl_ntfset_test_secret';
const API_KEY = 'pdl_sdbx_apikey_test';

let paddleApi: Awaited<ReturnType<typeof startPaddleApi>>;
let t: TestApp;
let owner: Client;
let kits: { id: number; sef_id: string; title: string; price_cents: number }[];

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
  kits = (await t.pool.query('SELECT id, sef_id, title, price_cents FROM kits ORDER BY position')).rows;
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
  return { client, orderId, paid };
}

const purchases = async (client: Client) =>
  (await client.post('/api/purchases', {})).json().items.map((p: { sef_id: string }) => p.sef_id);

describe('refunds with Paddle', () => {
  it('asks Paddle for the refund, answers refund_requested, and takes the kit only when the approved adjustment arrives', async () => {
    const { client, orderId, paid } = await paidBuyer([kits[0]!.id, kits[1]!.id]);
    const betaLine = paid.data.details.line_items[1]!.id;
    paddleApi.answerRefunds({
      status: 201,
      body: { data: { id: 'adj_01standin', action: 'refund', status: 'pending_approval' }, meta: { request_id: 'x' } },
    });
    paddleApi.seen.length = 0;
    const res = await owner.post(`/api/admin/orders/${orderId}/refund`, {
      kit_ids: [kits[1]!.id],
      reason: 'Duplicate',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: orderId, status: 'paid', refund_requested: true });
    expect(paddleApi.seen).toEqual([
      {
        method: 'POST',
        url: '/adjustments',
        auth: `Bearer ${API_KEY}`,
        body: {
          action: 'refund',
          transaction_id: paid.data.id,
          reason: 'Duplicate',
          items: [{ item_id: betaLine, type: 'full' }],
        },
      },
    ]);
    // Requested, not approved: the buyer keeps both kits for now.
    expect(await purchases(client)).toEqual([kits[0]!.sef_id, kits[1]!.sef_id]);
    const activity = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    expect(activity).toMatchObject({ action: 'refund requested', target: `order ${orderId}` });
    expect(activity.detail).toContain('adj_01standin');

    // Paddle's pending adjustment changes nothing; its approval takes the kit away at once.
    const adjustment = (status: string, type: string) => ({
      event_id: `evt_${status}_${Math.random().toString(36).slice(2)}`,
      event_type: type,
      occurred_at: new Date().toISOString(),
      data: {
        id: 'adj_01standin',
        action: 'refund',
        status,
        transaction_id: paid.data.id,
        items: [{ item_id: betaLine, type: 'full', amount: String(kits[1]!.price_cents) }],
      },
    });
    expect((await deliver(adjustment('pending_approval', 'adjustment.created'))).json().outcome).toBe('ignored');
    expect(await purchases(client)).toEqual([kits[0]!.sef_id, kits[1]!.sef_id]);
    expect((await deliver(adjustment('approved', 'adjustment.updated'))).json().outcome).toBe('refunded');
    expect(await purchases(client)).toEqual([kits[0]!.sef_id]);
    expect((await client.get(`/download/${kits[1]!.id}`)).statusCode).toBe(403);
    const order = (await owner.get(`/api/admin/orders/${orderId}`)).json();
    expect(order.status).toBe('partially_refunded');
    expect(order.events.map((e: { type: string; outcome: string }) => `${e.type} ${e.outcome}`)).toEqual([
      'transaction.completed fulfilled',
      'adjustment.updated refunded',
    ]);
  });

  it('refunds the whole order line by line, and answers Paddle’s refusal with a 409 that changes nothing', async () => {
    const { orderId, paid } = await paidBuyer([kits[0]!.id]);
    paddleApi.answerRefunds({
      status: 400,
      body: { error: { type: 'request_error', code: 'adjustment_pending_refund_request', detail: 'Refund pending' } },
    });
    paddleApi.seen.length = 0;
    const before = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    const res = await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Refund pending/);
    expect((paddleApi.seen[0]!.body as { items: unknown }).items).toEqual([
      { item_id: paid.data.details.line_items[0]!.id, type: 'full' },
    ]);
    expect((await owner.get('/api/admin/activity?limit=1')).json().items[0]).toEqual(before);
  });

  it('asks Paddle with no row locked, holding the order’s refund meanwhile; when Paddle fails nothing has changed and the owner can retry', async () => {
    const { client, orderId } = await paidBuyer([kits[0]!.id]);
    let answerNow = () => {};
    paddleApi.answerRefunds({
      status: 500,
      body: { error: { type: 'api_error', code: 'internal_error', detail: 'Try again later' } },
      until: new Promise<void>((resolve) => {
        answerNow = resolve;
      }),
    });
    paddleApi.seen.length = 0;
    const before = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    const asking = owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked' });
    await expect.poll(() => paddleApi.seen.length).toBe(1);

    // While Paddle is asked: the order is not locked, and a second refund of it waits for the answer.
    const other = await t.pool.connect();
    try {
      await other.query('BEGIN');
      const locked = await other.query('SELECT id FROM orders WHERE public_id = $1 FOR UPDATE NOWAIT', [orderId]);
      expect(locked.rowCount).toBe(1);
      await other.query('ROLLBACK');
    } finally {
      other.release();
    }
    const second = await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked twice' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/being sent to the payment provider/);
    expect(paddleApi.seen).toHaveLength(1);

    answerNow();
    const failed = await asking;
    expect(failed.statusCode).toBe(409);
    expect(failed.json().message).toMatch(/Try again later/);
    const order = (await owner.get(`/api/admin/orders/${orderId}`)).json();
    expect(order).toMatchObject({
      status: 'paid',
      lines: [{ kit_id: kits[0]!.id, refunded: false, refunded_amount: 0 }],
    });
    expect(await purchases(client)).toEqual([kits[0]!.sef_id]);
    expect((await owner.get('/api/admin/activity?limit=1')).json().items[0]).toEqual(before);
    const { rows } = await t.pool.query('SELECT refund_reserved_at FROM orders WHERE public_id = $1', [orderId]);
    expect(rows[0].refund_reserved_at).toBeNull();

    // The owner tries again, and Paddle takes the request.
    paddleApi.answerRefunds({
      status: 201,
      body: { data: { id: 'adj_01retry', action: 'refund', status: 'pending_approval' }, meta: { request_id: 'y' } },
    });
    const retried = await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked' });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'paid', refund_requested: true });
    const activity = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    expect(activity).toMatchObject({ action: 'refund requested', target: `order ${orderId}` });
    expect(activity.detail).toContain('adj_01retry');
  });

  it('takes over a reservation left stale (its request never recorded), but not a recent one', async () => {
    const { orderId } = await paidBuyer([kits[0]!.id]);
    paddleApi.answerRefunds({
      status: 201,
      body: { data: { id: 'adj_01stale', action: 'refund', status: 'pending_approval' }, meta: { request_id: 'z' } },
    });
    await t.pool.query('UPDATE orders SET refund_reserved_at = now() WHERE public_id = $1', [orderId]);
    expect((await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked' })).statusCode).toBe(409);
    await t.pool.query(`UPDATE orders SET refund_reserved_at = now() - interval '10 minutes' WHERE public_id = $1`, [
      orderId,
    ]);
    expect((await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked' })).statusCode).toBe(200);
  });
});
