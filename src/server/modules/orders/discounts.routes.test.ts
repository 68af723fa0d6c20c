import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createClient,
  deliverWebhook,
  sandboxPay,
  signedInClient,
} from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { readPaddleEvent } from '../../integrations/payments/events.ts';
import { sandboxTransactionCompleted, sandboxWebhookSecret } from '../../integrations/payments/sandbox.ts';
import { mailboxKey } from '../../lib/mailbox.ts';
import { CODE_HOLD_MINUTES, createDiscount, usableCode } from './discounts.service.ts';
import { createPaymentEventQueue } from './fulfilment.service.ts';

let t: TestApp;
let owner: Client;
let alpha: number;
let beta: number;
const secret = sandboxWebhookSecret('test-secret-test-secret-test-secret');

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  const { rows } = await t.pool.query('SELECT id FROM kits ORDER BY position');
  [alpha, beta] = rows.map((r) => r.id);
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test' }));
});
afterAll(() => t.close());

const createCode = async (body: object) => {
  const res = await owner.post('/api/admin/discounts', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const codeNamed = async (code: string) =>
  (await owner.get('/api/admin/discounts')).json().items.find((d: { code: string }) => d.code === code);

const deliver = (event: object) => deliverWebhook(t.app, event, secret);

async function buyer(email?: string) {
  return (await signedInClient(t.app, t.pool, email ? { email } : {})).client;
}

/** Moves a checkout back in time, as if it was opened (and last held its code) `minutes` earlier. */
const age = (publicId: string, minutes: number) =>
  t.pool.query(
    `UPDATE orders SET created_at = created_at - make_interval(mins => $2),
            code_held_at = code_held_at - make_interval(mins => $2) WHERE public_id = $1`,
    [publicId, minutes],
  );

/** A completed payment of an order as the provider sends it, built from the order's own lines. */
async function paymentOf(publicId: string) {
  const { rows } = await t.pool.query(
    `SELECT o.user_id, i.kit_id AS "kitId", i.paddle_price_id AS "paddlePriceId", i.price_cents AS "priceCents",
            i.list_price_cents AS "listPriceCents"
       FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.public_id = $1`,
    [publicId],
  );
  return sandboxTransactionCompleted({ publicId, userId: rows[0].user_id, items: rows });
}

const orderRow = async (publicId: string) =>
  (await t.pool.query('SELECT status, total_cents, discount_cents FROM orders WHERE public_id = $1', [publicId]))
    .rows[0];

describe('owner discount calls', () => {
  it('creates, lists and pauses codes; refuses duplicates in any case and bad input', async () => {
    const created = await createCode({
      code: 'Spring30',
      percent_off: 30,
      kit_ids: [alpha],
      starts_at: '2020-01-01',
      ends_at: '2099-01-01T00:00:00Z',
      max_redemptions: 100,
      once_per_customer: true,
    });
    expect(created).toMatchObject({
      code: 'Spring30',
      percent_off: 30,
      amount_off: null,
      kit_ids: [alpha],
      starts_at: '2020-01-01T00:00:00.000Z',
      ends_at: '2099-01-01T00:00:00.000Z',
      max_redemptions: 100,
      redemptions: 0,
      once_per_customer: true,
      active: true,
    });
    expect((await owner.post('/api/admin/discounts', { code: 'SPRING30', percent_off: 5 })).statusCode).toBe(409);
    for (const bad of [
      { code: 'X1', percent_off: 10, amount_off: 5 },
      { code: 'X2' },
      { code: 'X3', percent_off: 101 },
      { code: 'X4', amount_off: 5.123 },
      { code: 'no spaces', percent_off: 10 },
      { code: 'X5', percent_off: 10, kit_ids: [999999] },
      { code: 'X6', percent_off: 10, starts_at: '2026-02-01', ends_at: '2026-01-01' },
      { code: 'X7', percent_off: 10, ends_at: 'tomorrow' },
    ]) {
      const res = await owner.post('/api/admin/discounts', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const paused = await owner.post('/api/admin/discounts/spring30', { active: false });
    expect(paused.json()).toMatchObject({ code: 'Spring30', active: false });
    expect((await codeNamed('Spring30')).active).toBe(false);
    expect((await owner.post('/api/admin/discounts/nope', { active: false })).statusCode).toBe(404);
    const activity = (await owner.get('/api/admin/activity?limit=2')).json().items;
    expect(activity.map((a: { action: string }) => a.action)).toEqual(['pause discount', 'create discount']);
  });

  it('creates the catalog codes (discounts.json) once, never undoing a pause by an owner', async () => {
    const { importCatalogDiscounts } = await import('./discounts.service.ts');
    const entries = [{ code: 'Demo20', percent_off: 20 }, { code: 'Broken' }, { code: 'X' }];
    const first = await importCatalogDiscounts(t.db, entries, { paddle: false, timeZone: 'UTC' });
    expect(first.created).toEqual(['Demo20']);
    expect(first.skipped).toEqual([
      'discounts.json: 1.percent_off: give either percent_off or amount_off',
      'discounts.json: 2.code: must be at least 2 characters',
    ]);
    await owner.post('/api/admin/discounts/demo20', { active: false });
    expect((await importCatalogDiscounts(t.db, entries, { paddle: false, timeZone: 'UTC' })).created).toEqual([]);
    expect((await codeNamed('Demo20')).active).toBe(false);
    const paddle = await importCatalogDiscounts(t.db, [{ code: 'PaddleLess', percent_off: 5 }], {
      paddle: true,
      timeZone: 'UTC',
    });
    expect(paddle.skipped[0]).toMatch(/PaddleLess: paddle_discount_id: required/);
  });

  it('is for owners only, with the CSRF token', async () => {
    const customer = await buyer();
    expect((await customer.get('/api/admin/discounts')).statusCode).toBe(403);
    expect((await (await createClient(t.app)).get('/api/admin/discounts')).statusCode).toBe(401);
    const noToken = await owner.post('/api/admin/discounts', { code: 'CSRF1', percent_off: 5 }, { 'x-csrf-token': '' });
    expect(noToken.statusCode).toBe(419);
  });
});

describe('POST /api/cart with a discount code', () => {
  it('answers original and final prices, the discount, subtotal and total', async () => {
    await createCode({ code: 'TENPCT', percent_off: 10 });
    await createCode({ code: 'FIVEOFF', amount_off: 5 });
    await createCode({ code: 'ALPHAONLY', amount_off: 100, kit_ids: [alpha] });
    const anon = await createClient(t.app);
    const percent = (await anon.post('/api/cart', { products: [alpha, beta], discount_code: 'tenpct' })).json();
    expect(percent.items.map((i: object) => [i])).toMatchObject([
      [{ id: alpha, original_price: 49, price: 44.1 }],
      [{ id: beta, original_price: 19.5, price: 17.55 }],
    ]);
    expect(percent).toMatchObject({ discount: { code: 'TENPCT', amount: 6.85 }, subtotal: 68.5, total: 61.65 });
    const amount = (await anon.post('/api/cart', { products: [alpha, beta], discount_code: 'FIVEOFF' })).json();
    expect(amount).toMatchObject({ discount: { code: 'FIVEOFF', amount: 5 }, subtotal: 68.5, total: 63.5 });
    expect(amount.items[0].price + amount.items[1].price).toBeCloseTo(63.5, 2);
    // Never below zero: 100 off a 49 kit takes 49, and only from the kit it names.
    const capped = (await anon.post('/api/cart', { products: [alpha, beta], discount_code: 'ALPHAONLY' })).json();
    expect(capped).toMatchObject({ discount: { amount: 49 }, total: 19.5 });
    expect(capped.items.map((i: { price: number }) => i.price)).toEqual([0, 19.5]);
  });

  it('refuses unknown, paused, expired, not yet valid and used-up codes with their reason', async () => {
    await createCode({ code: 'OLD', percent_off: 10, ends_at: '2021-01-01' });
    await createCode({ code: 'LATER', percent_off: 10, starts_at: '2099-01-01' });
    await createCode({ code: 'PAUSED', percent_off: 10 });
    await owner.post('/api/admin/discounts/PAUSED', { active: false });
    await createCode({ code: 'GONE', percent_off: 10, max_redemptions: 1 });
    await t.pool.query("UPDATE discount_codes SET redemptions = 1 WHERE code = 'GONE'");
    await createCode({ code: 'BETAONLY', percent_off: 10, kit_ids: [beta] });
    const anon = await createClient(t.app);
    const cases: [string, number, RegExp][] = [
      ['NOPE', 422, /no discount code NOPE/],
      ['old', 422, /OLD expired on 2021-01-01/],
      ['LATER', 422, /LATER is valid from 2099-01-01/],
      ['PAUSED', 422, /PAUSED is paused/],
      ['GONE', 409, /GONE has been used up/],
      ['BETAONLY', 422, /BETAONLY does not apply to the kits in your cart/],
    ];
    for (const [code, status, message] of cases) {
      const res = await anon.post('/api/cart', { products: [alpha], discount_code: code });
      expect(res.statusCode, code).toBe(status);
      expect(res.json().message).toMatch(message);
    }
  });
});

describe('start and end days in the shop time zone', () => {
  it('keeps a code usable all of its end day in the shop zone, from the first moment of its start day', async () => {
    const zone = 'America/New_York';
    const row = await createDiscount(
      t.db,
      { code: 'NYDEC', percent_off: 10, starts_at: '2026-12-01', ends_at: '2026-12-02', once_per_customer: false },
      { paddle: false, timeZone: zone },
    );
    expect(row.startsAt?.toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(row.endsAt?.toISOString()).toBe('2026-12-03T05:00:00.000Z');
    const at = (moment: string) => usableCode(t.db, 'nydec', null, zone, new Date(moment));
    await expect(at('2026-12-02T23:30:00-05:00')).resolves.toMatchObject({ code: 'NYDEC' });
    await expect(at('2026-12-01T00:00:00-05:00')).resolves.toMatchObject({ code: 'NYDEC' });
    await expect(at('2026-12-03T00:01:00-05:00')).rejects.toThrow('The code NYDEC expired on 2026-12-02.');
    await expect(at('2026-11-30T23:59:00-05:00')).rejects.toThrow('The code NYDEC is valid from 2026-12-01.');
  });

  it('reads days in UTC by default, allows a one-day code, and tells the console its zone', async () => {
    const created = await createCode({
      code: 'ONEDAY',
      percent_off: 10,
      starts_at: '2030-06-15',
      ends_at: '2030-06-15',
    });
    expect(created).toMatchObject({ starts_at: '2030-06-15T00:00:00.000Z', ends_at: '2030-06-16T00:00:00.000Z' });
    const list = (await owner.get('/api/admin/discounts')).json();
    expect(list.time_zone).toBe('UTC');
    // A moment keeps its instant; one not after a start day is refused with the field named.
    const moment = await createCode({ code: 'EXACT', percent_off: 10, ends_at: '2030-06-15T12:00:00Z' });
    expect(moment.ends_at).toBe('2030-06-15T12:00:00.000Z');
    const before = await owner.post('/api/admin/discounts', {
      code: 'BACKWARDS',
      percent_off: 10,
      starts_at: '2030-06-15',
      ends_at: '2030-06-14T23:00:00Z',
    });
    expect(before.statusCode).toBe(422);
    expect(before.json().message).toBe('ends_at: The end must be after the start.');
  });
});

describe('redemptions', () => {
  it('counts a paid order once, and a refund in full gives the use back', async () => {
    await createCode({ code: 'ONCE', percent_off: 50, once_per_customer: true });
    const client = await buyer();
    const cart = (await client.post('/api/cart', { products: [alpha], discount_code: 'ONCE', checkout: true })).json();
    expect(cart.total).toBe(24.5);
    expect(await orderRow(cart.order_id)).toMatchObject({ status: 'pending', total_cents: 2450, discount_cents: 2450 });
    expect((await codeNamed('ONCE')).redemptions).toBe(0); // a checkout is not a use
    expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
    expect(await orderRow(cart.order_id)).toMatchObject({ status: 'paid' });
    expect((await codeNamed('ONCE')).redemptions).toBe(1);
    expect((await owner.get(`/api/admin/orders/${cart.order_id}`)).json()).toMatchObject({
      total: 24.5,
      discount: { code: 'ONCE', amount: 24.5 },
    });
    // Once per customer: the same buyer cannot use it on another kit.
    const again = await client.post('/api/cart', { products: [beta], discount_code: 'ONCE' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/used the code ONCE already/);

    const { rows } = await t.pool.query('SELECT transaction_id FROM orders WHERE public_id = $1', [cart.order_id]);
    const refund = await deliver({
      event_id: `evt_refund_${cart.order_id}`,
      event_type: 'adjustment.created',
      data: { id: 'adj_once', action: 'refund', status: 'approved', transaction_id: rows[0].transaction_id, items: [] },
    });
    expect(refund.json().outcome).toBe('refunded');
    expect((await codeNamed('ONCE')).redemptions).toBe(0);
    expect((await client.post('/api/cart', { products: [beta], discount_code: 'ONCE' })).statusCode).toBe(200);
  });

  it('20 buyers checking out at once with a code limited to 5 redeem it exactly 5 times', async () => {
    await createCode({ code: 'FIRST5', percent_off: 20, max_redemptions: 5 });
    const buyers = await Promise.all(Array.from({ length: 20 }, buyer));
    const checkouts = await Promise.all(
      buyers.map((c) => c.post('/api/cart', { products: [alpha], discount_code: 'FIRST5', checkout: true })),
    );
    const opened = checkouts.filter((r) => r.statusCode === 200);
    expect(opened).toHaveLength(5);
    for (const r of checkouts.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toMatch(/FIRST5 has been used up/);
    }
    const paid = await Promise.all(
      checkouts.map((r, i) => (r.statusCode === 200 ? sandboxPay(buyers[i]!, r.json().order_id) : null)),
    );
    expect(paid.filter((r) => r?.statusCode === 200)).toHaveLength(5);
    expect((await codeNamed('FIRST5')).redemptions).toBe(5);
  });

  it('payments racing for the last uses after their holds ran out: exactly the limit is redeemed, the rest flagged', async () => {
    await createCode({ code: 'RACE3', amount_off: 10, max_redemptions: 3 });
    const buyers = await Promise.all(Array.from({ length: 7 }, buyer));
    const orders: string[] = [];
    for (const client of buyers) {
      const res = await client.post('/api/cart', { products: [beta], discount_code: 'RACE3', checkout: true });
      expect(res.statusCode).toBe(200);
      orders.push(res.json().order_id);
      // The hold runs out (two hours pass), so the next buyer may check out too.
      await age(res.json().order_id, 120);
    }
    const events = await Promise.all(orders.map(paymentOf));
    const outcomes = (await Promise.all(events.map(deliver))).map((r) => r.json().outcome);
    expect(outcomes.filter((o) => o === 'fulfilled')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'flagged')).toHaveLength(4);
    expect((await codeNamed('RACE3')).redemptions).toBe(3);
    const { rows } = await t.pool.query(
      "SELECT flagged_reason FROM orders WHERE public_id = ANY($1) AND status = 'flagged'",
      [orders],
    );
    expect(rows[0].flagged_reason).toMatch(/RACE3 was used up before this payment arrived/);
  });

  it('flags a payment whose amount does not match the discounted order and grants nothing', async () => {
    await createCode({ code: 'HALF', percent_off: 50 });
    const { client, user } = await signedInClient(t.app, t.pool);
    const cart = (await client.post('/api/cart', { products: [alpha], discount_code: 'HALF', checkout: true })).json();
    const { rows } = await t.pool.query(
      'SELECT i.kit_id AS "kitId", i.paddle_price_id AS "paddlePriceId" FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.public_id = $1',
      [cart.order_id],
    );
    // The full price charged with no discount, or a bigger discount than the code's: neither is the order.
    for (const priceCents of [4900, 1000]) {
      const event = sandboxTransactionCompleted({
        publicId: cart.order_id,
        userId: user.id,
        items: [{ ...rows[0], priceCents, listPriceCents: 4900 }],
      });
      const res = await deliver(event);
      expect(res.json().outcome).toBe('flagged');
      if (priceCents === 4900) {
        const order = await orderRow(cart.order_id);
        expect(order.status).toBe('flagged');
        const reason = (await t.pool.query('SELECT flagged_reason FROM orders WHERE public_id = $1', [cart.order_id]))
          .rows[0].flagged_reason;
        expect(reason).toMatch(/4900 paid before tax instead of 2450/);
      }
    }
    const owned = await t.pool.query('SELECT 1 FROM entitlements WHERE user_id = $1 AND revoked_at IS NULL', [user.id]);
    expect(owned.rowCount).toBe(0);
    expect((await codeNamed('HALF')).redemptions).toBe(0);
  });
});

describe('holds of limited codes', () => {
  const checkOut = (client: Client, code: string, products = [alpha]) =>
    client.post('/api/cart', { products, discount_code: code, checkout: true });

  it('two accounts that never pay hold a limit-2 code for minutes, not an hour; then others get it', async () => {
    // Long enough to pay, short enough that abandoned checkouts do not keep a code from everyone.
    expect(CODE_HOLD_MINUTES).toBeGreaterThanOrEqual(10);
    expect(CODE_HOLD_MINUTES).toBeLessThanOrEqual(30);
    await createCode({ code: 'PAIR2', percent_off: 10, max_redemptions: 2 });
    const [a1, a2, b] = await Promise.all([buyer(), buyer(), buyer()]);
    const abandoned = [(await checkOut(a1, 'PAIR2')).json().order_id, (await checkOut(a2, 'PAIR2')).json().order_id];
    for (const id of abandoned) await age(id, CODE_HOLD_MINUTES - 1);
    const refused = await checkOut(b, 'PAIR2');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/PAIR2 has been used up/);
    for (const id of abandoned) await age(id, 2);
    const opened = await checkOut(b, 'PAIR2');
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().total).toBe(44.1);
  });

  it("a limit-1 code held by A's abandoned checkout is B's after the hold; A paying late is flagged", async () => {
    await createCode({ code: 'LAST1', percent_off: 10, max_redemptions: 1 });
    const [a, b] = await Promise.all([buyer(), buyer()]);
    const abandoned = (await checkOut(a, 'LAST1')).json().order_id;
    expect((await checkOut(b, 'LAST1')).statusCode).toBe(409);
    // Half an hour later (an hour was the hold once).
    await age(abandoned, 31);
    const opened = await checkOut(b, 'LAST1');
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await sandboxPay(b, opened.json().order_id)).statusCode).toBe(200);
    expect(await orderRow(opened.json().order_id)).toMatchObject({ status: 'paid' });
    // A's old checkout paid after all finds no use left: flagged for a refund, the code not used twice.
    expect((await sandboxPay(a, abandoned)).statusCode).toBe(200);
    expect(await orderRow(abandoned)).toMatchObject({ status: 'flagged' });
    expect((await codeNamed('LAST1')).redemptions).toBe(1);
  });

  it("a buyer's newer checkout supersedes their older one, which no longer holds its code", async () => {
    await createCode({ code: 'SOLO1', amount_off: 5, max_redemptions: 1 });
    const [a, b] = await Promise.all([buyer(), buyer()]);
    const first = (await checkOut(a, 'SOLO1')).json().order_id;
    expect((await checkOut(b, 'SOLO1')).statusCode).toBe(409);
    // A moves on to another cart, without the code: the first checkout is left behind.
    const second = await a.post('/api/cart', { products: [beta], checkout: true });
    expect(second.json().order_id).not.toBe(first);
    const taken = await checkOut(b, 'SOLO1');
    expect(taken.statusCode, taken.body).toBe(200);
    // B's checkout holds it now, so A's cart with the code is refused.
    const back = await checkOut(a, 'SOLO1');
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toMatch(/SOLO1 has been used up/);
  });

  it('opening the same checkout again keeps its order and renews its hold', async () => {
    await createCode({ code: 'RENEW1', percent_off: 10, max_redemptions: 1 });
    const [a, b] = await Promise.all([buyer(), buyer()]);
    const first = (await checkOut(a, 'RENEW1')).json().order_id;
    await age(first, CODE_HOLD_MINUTES - 1);
    expect((await checkOut(a, 'RENEW1')).json().order_id).toBe(first);
    await age(first, 2);
    expect((await checkOut(b, 'RENEW1')).statusCode).toBe(409);
  });
});

describe('once per customer: one mailbox is one customer', () => {
  const tryCode = (client: Client, code: string, checkout: boolean) =>
    client.post('/api/cart', { products: [alpha], discount_code: code, checkout });

  async function redeem(client: Client, code: string) {
    const cart = (await tryCode(client, code, true)).json();
    expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
    expect(await orderRow(cart.order_id)).toMatchObject({ status: 'paid' });
    return cart.order_id as string;
  }

  async function expectRefused(email: string, code: string) {
    const client = await buyer(email);
    for (const checkout of [false, true]) {
      const res = await tryCode(client, code, checkout);
      expect(res.statusCode, `${email} ${checkout ? 'checkout' : 'cart'}`).toBe(409);
      expect(res.json().message).toMatch(new RegExp(`used the code ${code} already`));
    }
  }

  it('refuses a Gmail mailbox again under dots, googlemail.com, a +tag or capitals', async () => {
    await createCode({ code: 'WELCOME', percent_off: 20, once_per_customer: true });
    await redeem(await buyer('janedoe@googlemail.com'), 'WELCOME');
    for (const email of ['Jane.Doe+x@gmail.com', 'JANE.DOE@GoogleMail.com', 'j.a.n.e.d.o.e+shop@gmail.com'])
      await expectRefused(email, 'WELCOME');
    // Another mailbox is another customer.
    expect((await tryCode(await buyer('jane.doe2@gmail.com'), 'WELCOME', true)).statusCode).toBe(200);
  });

  it('refuses plus-addressing and case at any domain, where dots still make another mailbox', async () => {
    await createCode({ code: 'HELLO', amount_off: 5, once_per_customer: true });
    await redeem(await buyer('Sam@Example.COM'), 'HELLO');
    for (const email of ['sam+deals@example.com', 'SAM+1@EXAMPLE.com']) await expectRefused(email, 'HELLO');
    for (const email of ['s.am@example.com', 'sam@example.org'])
      expect((await tryCode(await buyer(email), 'HELLO', true)).statusCode, email).toBe(200);
  });

  it('two accounts at one mailbox that both checked out: only the first payment redeems, the other is flagged', async () => {
    await createCode({ code: 'ONEBOX', percent_off: 30, once_per_customer: true });
    const opened = async (emails: string[]) => {
      const ids: string[] = [];
      for (const email of emails) {
        const res = await tryCode(await buyer(email), 'ONEBOX', true);
        expect(res.statusCode, res.body).toBe(200);
        ids.push(res.json().order_id);
      }
      return ids;
    };
    const outcome = async (publicId: string) => (await deliver(await paymentOf(publicId))).json().outcome;

    const [kim, kimAgain] = await opened(['kim@example.net', 'Kim+second@example.net']);
    expect(await outcome(kim!)).toBe('fulfilled');
    expect(await outcome(kimAgain!)).toBe('flagged');
    const { rows } = await t.pool.query('SELECT flagged_reason FROM orders WHERE public_id = $1', [kimAgain]);
    expect(rows[0].flagged_reason).toMatch(/mailbox has used the discount code ONEBOX already/);

    // Paid at the same moment, in one group of payments (one transaction): still one use.
    const both = await opened(['lee.park@gmail.com', 'LeePark+2@googlemail.com']);
    const queue = createPaymentEventQueue({ db: t.db, config: t.config, mailQueued: () => {} });
    const events = await Promise.all(both.map(paymentOf));
    const outcomes = await Promise.all(events.map((event) => queue.apply(readPaddleEvent(event), event)));
    expect(outcomes).toEqual(['fulfilled', 'flagged']);
    expect((await codeNamed('ONEBOX')).redemptions).toBe(2);
  });

  it('keeps the mailbox with each use, and forgets it when the account is erased', async () => {
    await createCode({ code: 'BYE', percent_off: 10, once_per_customer: true });
    const { client, user } = await signedInClient(t.app, t.pool, { email: 'Pat.Lee+shop@gmail.com' });
    const orderId = await redeem(client, 'BYE');
    const mailbox = async () =>
      (
        await t.pool.query(
          'SELECT r.mailbox FROM discount_redemptions r JOIN orders o ON o.id = r.order_id WHERE o.public_id = $1',
          [orderId],
        )
      ).rows;
    expect(await mailbox()).toEqual([{ mailbox: 'patlee@gmail.com' }]);
    const res = await client.post('/api/account/delete', { password: user.password, confirmation: 'DELETE' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await mailbox()).toEqual([{ mailbox: null }]);
    expect((await codeNamed('BYE')).redemptions).toBe(1);
  });

  it("the migration's backfill keys earlier uses as mailboxKey does", async () => {
    const dir = new URL('../../db/migrations/', import.meta.url);
    const backfill = readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .flatMap((name) => readFileSync(new URL(name, dir), 'utf8').split('--> statement-breakpoint'))
      .filter((statement) => statement.includes('UPDATE "discount_redemptions" r SET "mailbox"'));
    expect(backfill).toHaveLength(1);
    await createCode({ code: 'EARLIER', percent_off: 5 });
    const emails = [
      'Jane.Doe+x@GoogleMail.com',
      'j.o.e@gmail.com',
      'Plain@Example.com',
      'Mixed.Case+Tag+More@Example.ORG',
      'dots.stay@example.com',
      '+lead@example.com',
      'tail+@example.com',
      '"a@b"+x@example.com',
    ];
    const { rows } = await t.pool.query(
      `WITH u AS (
         INSERT INTO users (name, email) SELECT 'Earlier buyer', e FROM unnest($1::text[]) e RETURNING id, email),
       o AS (
         INSERT INTO orders (public_id, user_id, status, total_cents, items_key)
         SELECT 'ord_backfill_' || u.id, u.id, 'paid', 100, '1' FROM u RETURNING id, user_id),
       r AS (
         INSERT INTO discount_redemptions (order_id, code_id, user_id)
         SELECT o.id, c.id, o.user_id FROM o, discount_codes c WHERE c.code = 'EARLIER' RETURNING user_id)
       SELECT u.id, u.email FROM u JOIN r ON r.user_id = u.id`,
      [emails],
    );
    expect(rows).toHaveLength(emails.length);
    await t.pool.query(backfill[0]!);
    const stored = await t.pool.query('SELECT user_id, mailbox FROM discount_redemptions WHERE user_id = ANY($1)', [
      rows.map((r) => r.id),
    ]);
    expect(new Map(stored.rows.map((r) => [r.user_id, r.mailbox]))).toEqual(
      new Map(rows.map((r) => [r.id, mailboxKey(r.email)])),
    );
  });
});
