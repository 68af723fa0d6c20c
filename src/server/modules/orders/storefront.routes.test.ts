import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Client, createClient, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { countBuyers, createShopStats } from './storefront.service.ts';

let t: TestApp;
let owner: Client;
let kits: { id: number; price_cents: number }[];

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  kits = (await t.pool.query('SELECT id, price_cents FROM kits WHERE active ORDER BY position')).rows;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test' }));
});
afterAll(() => t.close());

const createCode = async (body: object) => {
  const res = await owner.post('/api/admin/discounts', body);
  expect(res.statusCode, res.body).toBe(200);
};

async function buyKit(kitId: number) {
  const { client } = await signedInClient(t.app, t.pool);
  const cart = (await client.post('/api/cart', { products: [kitId], checkout: true })).json();
  expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
  return client;
}

describe('GET /api/discount-codes/{code}', () => {
  it('answers a percentage code with every kit priced as a cart of that kit alone', async () => {
    await createCode({ code: 'Launch20', percent_off: 20, ends_at: '2099-12-02' });
    const res = await (await createClient(t.app)).get('/api/discount-codes/launch20');
    expect(res.statusCode, res.body).toBe(200);
    const offer = res.json();
    expect(offer).toMatchObject({ code: 'Launch20', percent_off: 20, amount_off: null, kit_ids: null });
    // The end day typed is the last day the code works (ends are stored exclusive).
    expect(offer.last_day).toBe('2099-12-02');
    expect(offer.prices).toHaveLength(kits.length);
    for (const kit of kits) {
      const price = offer.prices.find((p: { id: number }) => p.id === kit.id);
      expect(price).toEqual({
        id: kit.id,
        title: expect.any(String),
        price: Math.round(kit.price_cents * 0.8) / 100,
        original_price: kit.price_cents / 100,
      });
    }
  });

  it('prices an amount code for the kits it names only, as the cart does', async () => {
    const [first, second] = kits;
    await createCode({ code: 'TENOFF', amount_off: 10, kit_ids: [first!.id] });
    const visitor = await createClient(t.app);
    const offer = (await visitor.get('/api/discount-codes/TENOFF')).json();
    expect(offer.kit_ids).toEqual([first!.id]);
    expect(offer.prices).toEqual([
      {
        id: first!.id,
        title: expect.any(String),
        price: (first!.price_cents - 1000) / 100,
        original_price: first!.price_cents / 100,
      },
    ]);
    const cart = (await visitor.post('/api/cart', { products: [first!.id], discount_code: 'TENOFF' })).json();
    expect(cart.items[0].price).toBe(offer.prices[0].price);
    expect(offer.prices.some((p: { id: number }) => p.id === second!.id)).toBe(false);
  });

  it('refuses an unknown, paused, expired or already used code with the cart’s 4xx message', async () => {
    const visitor = await createClient(t.app);
    const unknown = await visitor.get('/api/discount-codes/NOPE');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('There is no discount code NOPE.');

    await createCode({ code: 'PAUSED5', percent_off: 5 });
    expect((await owner.post('/api/admin/discounts/PAUSED5', { active: false })).statusCode).toBe(200);
    const paused = await visitor.get('/api/discount-codes/PAUSED5');
    expect(paused.statusCode).toBe(422);
    expect(paused.json().message).toBe('The code PAUSED5 is paused.');

    await createCode({ code: 'OLD10', percent_off: 10, starts_at: '2020-01-01', ends_at: '2020-02-01' });
    const expired = await visitor.get('/api/discount-codes/OLD10');
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toMatch(/^The code OLD10 expired on /);

    await createCode({ code: 'ONCE15', percent_off: 15, once_per_customer: true });
    const { client: buyer } = await signedInClient(t.app, t.pool);
    expect((await buyer.get('/api/discount-codes/ONCE15')).statusCode).toBe(200);
    const cart = (
      await buyer.post('/api/cart', { products: [kits[0]!.id], checkout: true, discount_code: 'ONCE15' })
    ).json();
    expect((await sandboxPay(buyer, cart.order_id)).statusCode).toBe(200);
    const used = await buyer.get('/api/discount-codes/ONCE15');
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe('You have used the code ONCE15 already.');
  });

  it('answers 422 with a message for a code too long, and never a 5xx', async () => {
    const res = await (await createClient(t.app)).get(`/api/discount-codes/${'A'.repeat(41)}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toEqual(expect.any(String));
  });
});

describe('shop figures', () => {
  it('count distinct buyers of paid orders: a buyer twice counts once, a pending checkout not at all', async () => {
    const stats = createShopStats(t.db, 0);
    const before = (await stats.get()).buyers;
    const buyer = await buyKit(kits[0]!.id);
    const cart = (await buyer.post('/api/cart', { products: [kits[1]!.id], checkout: true })).json();
    expect((await sandboxPay(buyer, cart.order_id)).statusCode).toBe(200);
    const { client: browsing } = await signedInClient(t.app, t.pool);
    await browsing.post('/api/cart', { products: [kits[1]!.id], checkout: true });
    expect((await stats.get()).buyers).toBe(before + 1);
  });

  it('are kept for their time to live, then counted again', async () => {
    let now = 1_000;
    const stats = createShopStats(t.db, 60_000, () => now);
    const first = (await stats.get()).buyers;
    await buyKit(kits[1]!.id);
    now += 59_000;
    expect((await stats.get()).buyers).toBe(first);
    now += 1_000;
    expect((await stats.get()).buyers).toBe(first + 1);
  });

  it('are answered by GET /api/shop-stats and rendered into the home page', async () => {
    const visitor = await createClient(t.app);
    const res = await visitor.get('/api/shop-stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ buyers: expect.any(Number) });
    const page = await visitor.get('/');
    const queries = JSON.parse(/id="page-queries">(.*?)<\/script>/s.exec(page.body)![1]!);
    // The page and the call read one kept count (the first visit counted it).
    expect(queries).toContainEqual([['shop-stats'], res.json()]);
  });

  it('keep the home page no longer than themselves: after a sale and their minute, page and call say the same again', async () => {
    // Only the clock moves (Date), so the page and the count expire as they would a minute later.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const visitor = await createClient(t.app);
      const figures = async () => {
        const page = await visitor.get('/');
        const queries = JSON.parse(/id="page-queries">(.*?)<\/script>/s.exec(page.body)![1]!);
        const shown = queries.find(([key]: [string[]]) => key[0] === 'shop-stats')?.[1];
        return { shown, answered: (await visitor.get('/api/shop-stats')).json() };
      };
      const before = await figures();
      expect(before.shown).toEqual(before.answered);
      await buyKit(kits[0]!.id);
      // Within the minute both still say the figure counted before the sale.
      expect(await figures()).toEqual(before);
      vi.setSystemTime(Date.now() + 60_000);
      const after = await figures();
      expect(after.answered).toEqual({ buyers: await countBuyers(t.db) });
      expect(after.answered.buyers).toBeGreaterThan(before.answered.buyers);
      // The kept page was rendered again with the new count, not sent as it was.
      expect(after.shown).toEqual(after.answered);
    } finally {
      vi.useRealTimers();
    }
  });
});
