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
import { sandboxRefundApproved, sandboxWebhookSecret } from '../../integrations/payments/sandbox.ts';

let t: TestApp;
let dir: string;
let alpha: number;
let beta: number;
let bundle: number;
const secret = sandboxWebhookSecret('test-secret-test-secret-test-secret');

beforeAll(async () => {
  dir = bundleCatalog();
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' }, { catalogDir: dir });
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

/** The order's lines as the provider names them, with its transaction. */
async function linesOf(orderId: string) {
  const { rows } = await t.pool.query(
    `SELECT o.transaction_id, i.kit_id, i.transaction_item_id, i.lapsed_at IS NOT NULL AS lapsed, o.status
       FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.public_id = $1 ORDER BY i.id`,
    [orderId],
  );
  return rows as {
    transaction_id: string;
    kit_id: number;
    transaction_item_id: string;
    lapsed: boolean;
    status: string;
  }[];
}

/** An approved refund from the provider of one kit's line of an order: in full, or `cents` of it. */
async function refundLine(orderId: string, kitId: number, cents?: number) {
  const line = (await linesOf(orderId)).find((l) => l.kit_id === kitId)!;
  const event = sandboxRefundApproved({
    transactionId: line.transaction_id,
    customerId: 'ctm_test',
    reason: 'test',
    lines: [{ itemId: line.transaction_item_id, amountCents: cents ?? 0, partial: cents !== undefined }],
  });
  const res = await deliverWebhook(t.app, event, secret);
  expect(res.json().outcome).toBe('refunded');
}

describe('a refund of a purchase an upgrade price counted', () => {
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  it('ends the upgrade too: the buyer keeps nothing the refunded money paid for (owner refund)', async () => {
    const { client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test' });
    const { client, user } = await signedInClient(t.app, t.pool);
    const betaOrder = await buy(client, [beta]);
    const upgrade = await buy(client, [bundle]);
    expect(upgrade.total).toBe(39.5);
    expect(await owned(user.id)).toEqual(sorted([alpha, beta, bundle]));

    // The owner's order page names the upgrade the refund would end.
    const detail = (await owner.get(`/api/admin/orders/${betaOrder.order_id}`)).json();
    expect(detail.upgrades).toEqual([
      { order_id: upgrade.order_id, title: 'Duo Bundle', price: 39.5, credit: 19.5, covered: 19.5, kit_ids: [beta] },
    ]);
    const res = await owner.post(`/api/admin/orders/${betaOrder.order_id}/refund`, { reason: 'Asked for it' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'refunded', upgrades: [] });
    expect(await owned(user.id)).toEqual([]);
    // The upgrade's own payment stands until that order is refunded too.
    const upgraded = (await owner.get(`/api/admin/orders/${upgrade.order_id}`)).json();
    expect(upgraded).toMatchObject({ status: 'paid', lines: [{ title: 'Duo Bundle', refunded: false, lapsed: true }] });
    const activity = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    expect(activity.detail).toContain(`ends the upgrade Duo Bundle (order ${upgrade.order_id})`);
    // The buyer is told: the refund, the kits gone, and the upgrade it ended.
    const mails = await t.pool.query('SELECT "to", subject, text FROM mail_outbox WHERE ref = $1 AND subject LIKE $2', [
      betaOrder.order_id,
      'Refund of%',
    ]);
    expect(mails.rows).toEqual([
      { to: user.email, subject: expect.stringContaining('USD 19.50'), text: expect.any(String) },
    ]);
    expect(mails.rows[0].text).toContain('No longer in your library: ');
    expect(mails.rows[0].text).toContain('Duo Bundle');
    expect(mails.rows[0].text).toContain(`it ended too: Duo Bundle (order ${upgrade.order_id})`);
    expect(mails.rows[0].text).not.toContain('Still yours');
    // Nothing counts towards the bundle any more: it costs its full price again.
    const again = (await client.post('/api/cart', { products: [bundle] })).json();
    expect(again.items[0]).toMatchObject({ price: 59, upgrade: null });
    // Refunding the upgrade's order afterwards gives that money back too.
    const rest = await owner.post(`/api/admin/orders/${upgrade.order_id}/refund`, { reason: 'Asked for it' });
    expect(rest.json().status).toBe('refunded');
  });

  it('keeps the upgrade while what stays paid of the counted purchases covers its credit (provider refunds)', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const kits = await buy(client, [alpha, beta]); // 68.50 paid
    const upgrade = await buy(client, [bundle]); // at its floor, 15.00: a credit of 44.00
    expect(upgrade.total).toBe(15);
    const all = sorted([alpha, beta, bundle]);

    // Beta refunded in full: 49.00 of Alpha still covers the 44.00; the bundle keeps Beta too.
    await refundLine(kits.order_id, beta);
    expect(await owned(user.id)).toEqual(all);
    expect((await linesOf(upgrade.order_id))[0]!.lapsed).toBe(false);
    // 5.00 of Alpha back: 44.00 still covered. One cent more: the upgrade ends, Alpha (partly refunded) stays.
    await refundLine(kits.order_id, alpha, 500);
    expect(await owned(user.id)).toEqual(all);
    await refundLine(kits.order_id, alpha, 1);
    expect((await linesOf(upgrade.order_id))[0]).toMatchObject({ lapsed: true, status: 'paid' });
    expect(await owned(user.id)).toEqual([alpha]);
  });

  it('keeps what the upgrade gave when its own order was refunded first', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const betaOrder = await buy(client, [beta]);
    const upgrade = await buy(client, [bundle]);
    await refundLine(upgrade.order_id, bundle);
    expect(await owned(user.id)).toEqual([beta]);
    await refundLine(betaOrder.order_id, beta);
    expect(await owned(user.id)).toEqual([]);
    expect((await linesOf(upgrade.order_id))[0]!.lapsed).toBe(false);
  });

  it('grants nothing for an upgrade paid after the purchase it counted was refunded', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const betaOrder = await buy(client, [beta]);
    const upgrade = (await client.post('/api/cart', { products: [bundle], checkout: true })).json();
    expect(upgrade.total).toBe(39.5);
    await refundLine(betaOrder.order_id, beta);
    expect((await sandboxPay(client, upgrade.order_id)).statusCode).toBe(200);
    expect(await owned(user.id)).toEqual([]);
    const { rows } = await t.pool.query('SELECT status, flagged_reason FROM orders WHERE public_id = $1', [
      upgrade.order_id,
    ]);
    expect(rows[0]).toEqual({
      status: 'flagged',
      flagged_reason: expect.stringContaining('the upgrade price of Duo Bundle counted a purchase refunded since'),
    });
  });
});
