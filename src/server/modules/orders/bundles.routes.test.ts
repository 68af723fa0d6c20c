import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import { bundleCatalog } from '../../../../tests/setup/bundle-catalog.ts';
import {
  type Client,
  createClient,
  deliverWebhook,
  sandboxPay,
  signedInClient,
} from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { sandboxWebhookSecret } from '../../integrations/payments/sandbox.ts';

let t: TestApp;
let dir: string;
let alpha: number;
let beta: number;
let bundle: number;
const secret = sandboxWebhookSecret('test-secret-test-secret-test-secret');

beforeAll(async () => {
  dir = bundleCatalog();
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test' }, { catalogDir: dir });
  const { rows } = await t.pool.query('SELECT id, sef_id FROM kits');
  const id = (sef: string) => rows.find((r) => r.sef_id === sef).id as number;
  [alpha, beta, bundle] = [id('alpha-kit'), id('beta-kit'), id('duo-bundle')];
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const owned = async (userId: number) =>
  (
    await t.pool.query('SELECT kit_id FROM entitlements WHERE user_id = $1 AND revoked_at IS NULL ORDER BY kit_id', [
      userId,
    ])
  ).rows.map((r) => r.kit_id);

async function buy(client: Client, products: number[]) {
  const cart = (await client.post('/api/cart', { products, checkout: true })).json();
  expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
  return cart;
}

describe('bundles', () => {
  it('answer their kits in the product call and the list; a single kit has none', async () => {
    const anon = await createClient(t.app);
    const product = (await anon.post('/api/product/duo-bundle')).json();
    expect(product.includes).toEqual([
      { id: alpha, sef_id: 'alpha-kit', title: 'Alpha Kit', price: 49 },
      { id: beta, sef_id: 'beta-kit', title: 'Beta Kit', price: 19.5 },
    ]);
    expect((await anon.post('/api/product/alpha-kit')).json().includes).toBeUndefined();
    const list = (await anon.post('/api/products')).json();
    expect(list.find((k: { id: number }) => k.id === bundle).includes).toHaveLength(2);
  });

  it('grant every included kit when paid, and a refund takes them back', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const cart = await buy(client, [bundle]);
    expect(cart.total).toBe(59);
    expect(await owned(user.id)).toEqual([alpha, beta, bundle].sort((a, b) => a - b));
    const purchases = (await client.post('/api/purchases', {})).json().items.map((p: { sef_id: string }) => p.sef_id);
    expect(purchases.sort()).toEqual(['alpha-kit', 'beta-kit', 'duo-bundle']);
    const { rows } = await t.pool.query('SELECT transaction_id FROM orders WHERE public_id = $1', [cart.order_id]);
    const res = await deliverWebhook(
      t.app,
      {
        event_id: `evt_refund_${cart.order_id}`,
        event_type: 'adjustment.created',
        data: { id: 'adj_b', action: 'refund', status: 'approved', transaction_id: rows[0].transaction_id, items: [] },
      },
      secret,
    );
    expect(res.json().outcome).toBe('refunded');
    expect(await owned(user.id)).toEqual([]);
  });

  it('leave out a kit of the cart that a bundle in it includes', async () => {
    const anon = await createClient(t.app);
    const cart = (await anon.post('/api/cart', { products: [alpha, bundle] })).json();
    expect(cart.items.find((i: { id: number }) => i.id === alpha)).toMatchObject({ included_in: 'Duo Bundle' });
    expect(cart).toMatchObject({ subtotal: 108, total: 59 });
  });
});

describe('upgrade pricing', () => {
  it('charges an owner of one kit the bundle price less what they paid, never below the floor', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await buy(client, [beta]); // paid 19.50
    const cart = (await client.post('/api/cart', { products: [bundle], checkout: true })).json();
    expect(cart.items[0]).toMatchObject({
      original_price: 59,
      price: 39.5,
      upgrade: { price: 39.5, reason: expect.stringMatching(/You own Beta Kit: the USD 19\.50 you paid counts/) },
    });
    expect(cart.total).toBe(39.5);
    expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
    expect(await owned(user.id)).toEqual([alpha, beta, bundle].sort((a, b) => a - b));

    const both = await signedInClient(t.app, t.pool);
    await buy(both.client, [alpha, beta]); // paid 68.50: more than the bundle, so the floor
    const floor = (await both.client.post('/api/cart', { products: [bundle] })).json();
    expect(floor.items[0]).toMatchObject({ price: 15, upgrade: { price: 15 } });
  });

  it('counts nothing for a kit granted for free, and nothing for a visitor who is not signed in', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await grantKits(t.pool, user.id, [alpha]);
    const cart = (await client.post('/api/cart', { products: [bundle] })).json();
    expect(cart.items[0]).toMatchObject({ price: 59, upgrade: null });
    const anon = (await (await createClient(t.app)).post('/api/cart', { products: [bundle] })).json();
    expect(anon.items[0]).toMatchObject({ price: 59, upgrade: null });
  });
});
