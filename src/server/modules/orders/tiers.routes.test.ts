import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import {
  type Client,
  createClient,
  deliverWebhook,
  sandboxPay,
  signedInClient,
} from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { sandboxTransactionCompleted, sandboxWebhookSecret } from '../../integrations/payments/sandbox.ts';

let t: TestApp;
let alpha: number;
let beta: number;
let team: number;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test' });
  const { rows } = await t.pool.query('SELECT id, sef_id FROM kits');
  const id = (sef: string) => rows.find((r) => r.sef_id === sef).id as number;
  [alpha, beta] = [id('alpha-kit'), id('beta-kit')];
  team = (await t.pool.query("SELECT id FROM kit_licences WHERE tier = 'team'")).rows[0].id;
});
afterAll(async () => {
  await t?.close();
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

describe('licence tiers', () => {
  it('are listed by the product call, Solo first, with their own ids; a kit without tiers lists Solo alone', async () => {
    const anon = await createClient(t.app);
    const product = (await anon.post('/api/product/alpha-kit')).json();
    expect(product.licenses).toEqual([
      { id: alpha, name: 'Solo', seats: 1, price: 49, paddle_id: 'pri_01alphaalphaalpha0001' },
      { id: team, name: 'Team', seats: 3, price: 199, paddle_id: 'pri_01alphateamalphateam1' },
    ]);
    expect(team).not.toBe(alpha);
    expect(team).not.toBe(beta);
    expect((await anon.post('/api/product/beta-kit')).json().licenses).toEqual([
      { id: beta, name: 'Solo', seats: 1, price: 19.5, paddle_id: 'pri_01betabetabeta000002' },
    ]);
  });

  it('are cart lines under their own id, titled by kit and tier, priced from the catalog', async () => {
    const anon = await createClient(t.app);
    const cart = (await anon.post('/api/cart', { products: [team, beta] })).json();
    expect(cart.items[0]).toMatchObject({
      id: team,
      title: 'Alpha Kit (Team, 3 developers)',
      spot: 'The alpha-kit spot text.',
      price: 199,
      purchased: false,
      paddle_id: 'pri_01alphateamalphateam1',
    });
    expect(cart.total).toBe(218.5);
  });

  it('leave the Solo line of the same kit out of the order', async () => {
    const anon = await createClient(t.app);
    const cart = (await anon.post('/api/cart', { products: [alpha, team] })).json();
    expect(cart.items[0]).toMatchObject({ id: alpha, included_in: 'Alpha Kit (Team, 3 developers)' });
    expect(cart).toMatchObject({ subtotal: 248, total: 199 });
  });

  it('are paid through the webhook like any line: the order keeps the tier and its seats, the buyer owns the kit', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const cart = await buy(client, [team]);
    expect(cart.total).toBe(199);
    expect(await owned(user.id)).toEqual([alpha]);
    const { rows } = await t.pool.query(
      `SELECT o.status, i.kit_id, i.licence_id, i.seats, i.title, i.paddle_price_id FROM orders o
         JOIN order_items i ON i.order_id = o.id WHERE o.public_id = $1`,
      [cart.order_id],
    );
    expect(rows).toEqual([
      {
        status: 'paid',
        kit_id: alpha,
        licence_id: team,
        seats: 3,
        title: 'Alpha Kit (Team, 3 developers)',
        paddle_price_id: 'pri_01alphateamalphateam1',
      },
    ]);
    // Bought once, the tier is purchased; so is Solo, which the Team licence covers.
    const again = (await client.post('/api/cart', { products: [team, alpha] })).json();
    expect(again.items.map((i: { purchased: boolean }) => i.purchased)).toEqual([true, true]);
    expect(again.total).toBe(0);
  });

  it('flag a payment whose line is not the tier sold (the Solo price id for a Team order)', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    const cart = (await client.post('/api/cart', { products: [team], checkout: true })).json();
    const event = sandboxTransactionCompleted({
      publicId: cart.order_id,
      userId: 1,
      items: [{ kitId: alpha, paddlePriceId: 'pri_01alphaalphaalpha0001', priceCents: 19900 }],
    });
    const res = await deliverWebhook(t.app, event, sandboxWebhookSecret('test-secret-test-secret-test-secret'));
    expect(res.json().outcome).toBe('flagged');
  });

  it('charge a buyer who paid for Solo the difference, never below the upgrade floor', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await buy(client, [alpha]); // 49.00: 199 - 49 = 150, under the 160.00 floor
    const cart = (await client.post('/api/cart', { products: [team], checkout: true })).json();
    expect(cart.items[0]).toMatchObject({
      id: team,
      original_price: 199,
      price: 160,
      purchased: false,
      upgrade: { price: 160, reason: expect.stringMatching(/You own Alpha Kit: the USD 49\.00 you paid counts/) },
    });
    expect(cart.total).toBe(160);
    expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
    const { rows } = await t.pool.query('SELECT status FROM orders WHERE public_id = $1', [cart.order_id]);
    expect(rows[0].status).toBe('paid');
    expect(await owned(user.id)).toEqual([alpha]);
  });

  it('count nothing for a kit owned without paying', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await grantKits(t.pool, user.id, [alpha]);
    const cart = (await client.post('/api/cart', { products: [team] })).json();
    expect(cart.items[0]).toMatchObject({ price: 199, upgrade: null, purchased: false });
  });
});
