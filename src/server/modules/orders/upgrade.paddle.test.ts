import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCatalog } from '../../../../tests/setup/bundle-catalog.ts';
import { type Client, deliverWebhook, signedInClient } from '../../../../tests/setup/client.ts';
import { startPaddleApi } from '../../../../tests/setup/paddle-api.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { sandboxTransactionCompleted } from '../../integrations/payments/sandbox.ts';

/**
 * Upgrade prices with PAYMENT_PROVIDER=paddle: Paddle's catalog has no such price, so the server
 * creates the transaction (`POST /transactions`, against a stand-in that checks the documented
 * shape), Paddle.js opens it by id, and the webhook's check finds the line by the price id Paddle gave it.
 */
const WEBHOOK_SECRET = 'pdl_ntfset_upgrade_secret';
const API_KEY = 'pdl_sdbx_apikey_upgrade';

let paddleApi: Awaited<ReturnType<typeof startPaddleApi>>;
let t: TestApp;
let dir: string;
let beta: number;
let bundle: number;

beforeAll(async () => {
  paddleApi = await startPaddleApi(API_KEY);
  dir = bundleCatalog();
  t = await createTestApp(
    {
      PUBLIC_URL: 'http://shop.test',
      OWNER_EMAILS: 'boss@shop.test',
      PAYMENT_PROVIDER: 'paddle',
      PADDLE_CLIENT_TOKEN: 'test_client_token',
      PADDLE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PADDLE_API_KEY: API_KEY,
      PADDLE_API_URL: paddleApi.url,
    },
    { catalogDir: dir },
  );
  const { rows } = await t.pool.query('SELECT id, sef_id FROM kits');
  const id = (sef: string) => rows.find((r) => r.sef_id === sef).id as number;
  [beta, bundle] = [id('beta-kit'), id('duo-bundle')];
});
afterAll(async () => {
  await t?.close();
  await paddleApi.close();
  rmSync(dir, { recursive: true, force: true });
});

const deliver = (event: object) => deliverWebhook(t.app, event, WEBHOOK_SECRET);

/** Paddle's `transaction.completed` for an order as it stands (its lines' price ids and prices). */
async function paidEvent(publicId: string, userId: number, transactionId?: string) {
  const { rows } = await t.pool.query(
    `SELECT i.kit_id AS "kitId", i.paddle_price_id AS "paddlePriceId", i.price_cents AS "priceCents",
            i.list_price_cents AS "listPriceCents"
       FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.public_id = $1 ORDER BY i.id`,
    [publicId],
  );
  const event = sandboxTransactionCompleted({ publicId, userId, items: rows });
  if (transactionId) event.data.id = transactionId;
  return event;
}

async function paidFor(client: Client, userId: number, products: number[]) {
  const cart = (await client.post('/api/cart', { products, checkout: true })).json();
  expect(cart.transaction_id).toBeNull(); // catalog prices: Paddle.js opens them by price id
  expect((await deliver(await paidEvent(cart.order_id, userId))).json().outcome).toBe('fulfilled');
}

describe('upgrade prices with Paddle', () => {
  it('creates a transaction with a non-catalog price and the code’s Paddle discount, once per order', async () => {
    const owner = (await signedInClient(t.app, t.pool, { email: 'boss@shop.test' })).client;
    const created = await owner.post('/api/admin/discounts', {
      code: 'UPGRADE10',
      percent_off: 10,
      paddle_discount_id: 'dsc_01upgradeupgrade',
    });
    expect(created.statusCode).toBe(200);
    expect((await owner.post('/api/admin/discounts', { code: 'NOPADDLE', percent_off: 10 })).statusCode).toBe(422);

    const { client, user } = await signedInClient(t.app, t.pool);
    await paidFor(client, user.id, [beta]); // 19.50 paid
    paddleApi.seen.length = 0;
    const cart = (
      await client.post('/api/cart', { products: [bundle], checkout: true, discount_code: 'upgrade10' })
    ).json();
    expect(cart.items[0]).toMatchObject({ original_price: 59, upgrade: { price: 39.5 }, price: 35.55 });
    expect(cart.discount).toMatchObject({ code: 'UPGRADE10', paddle_discount_id: 'dsc_01upgradeupgrade' });
    expect(cart.transaction_id).toMatch(/^txn_/);
    expect(paddleApi.seen).toEqual([
      {
        method: 'POST',
        url: '/transactions',
        auth: `Bearer ${API_KEY}`,
        body: {
          items: [
            {
              quantity: 1,
              price: expect.objectContaining({
                name: 'Duo Bundle',
                product: { name: 'Duo Bundle', tax_category: 'standard' },
                unit_price: { amount: '3950', currency_code: 'USD' },
                custom_data: { kit_id: bundle },
              }),
            },
          ],
          currency_code: 'USD',
          collection_mode: 'automatic',
          custom_data: { order_id: cart.order_id },
          discount_id: 'dsc_01upgradeupgrade',
        },
      },
    ]);
    // A reload of the checkout reuses the order and its transaction.
    const again = (
      await client.post('/api/cart', { products: [bundle], checkout: true, discount_code: 'UPGRADE10' })
    ).json();
    expect(again).toMatchObject({ order_id: cart.order_id, transaction_id: cart.transaction_id });
    expect(paddleApi.seen).toHaveLength(1);

    // Paddle's webhook names the price id it gave the upgrade line: the order is paid, every kit granted.
    const event = await paidEvent(cart.order_id, user.id, cart.transaction_id);
    expect(event.data.items[0]!.price.id).toMatch(/^pri_/);
    expect(event.data.items[0]!.price.id).not.toBe('pri_01duobundleduobundle');
    expect((await deliver(event)).json().outcome).toBe('fulfilled');
    const owned = await t.pool.query('SELECT count(*)::int AS n FROM entitlements WHERE user_id = $1', [user.id]);
    expect(owned.rows[0].n).toBe(3);
  });

  it('answers a 409 with Paddle’s reason when the transaction cannot be created, and keeps the order', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await paidFor(client, user.id, [beta]);
    paddleApi.seen.length = 0;
    const saved = t.config.paddle.apiKey;
    (t.config.paddle as { apiKey: string | undefined }).apiKey = 'pdl_wrong_key';
    try {
      const res = await client.post('/api/cart', { products: [bundle], checkout: true });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/payment provider could not prepare this order.*403.*Bad API key/);
    } finally {
      (t.config.paddle as { apiKey: string | undefined }).apiKey = saved;
    }
    const retry = (await client.post('/api/cart', { products: [bundle], checkout: true })).json();
    expect(retry.transaction_id).toMatch(/^txn_/);
  });
});
