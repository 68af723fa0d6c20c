import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import { type Client, createClient, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { readPaddleEvent } from '../../integrations/payments/events.ts';
import { sandboxTransactionCompleted, sandboxWebhookSecret } from '../../integrations/payments/sandbox.ts';
import { signPaddleBody } from '../../integrations/payments/signature.ts';
import { createPaymentEventQueue } from './fulfilment.service.ts';

let t: TestApp;
let kits: { id: number; sef_id: string; price_cents: number; paddle_price_id: string }[];
const secret = sandboxWebhookSecret('test-secret-test-secret-test-secret');

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test' });
  kits = (await t.pool.query('SELECT id, sef_id, price_cents, paddle_price_id FROM kits ORDER BY position')).rows;
});
afterAll(() => t.close());

async function buyer() {
  const { client: browser, user } = await signedInClient(t.app, t.pool);
  return { browser, user };
}

const deliver = (event: object, options: { key?: string; ts?: number; body?: string } = {}) => {
  const body = options.body ?? JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/paddle',
    headers: {
      'content-type': 'application/json',
      'paddle-signature': signPaddleBody(body, options.key ?? secret, options.ts),
    },
    payload: body,
  });
};

async function orderFor(browser: Client, ids: number[]) {
  return (await browser.post('/api/cart', { products: ids, checkout: true })).json();
}

async function paidEventFor(publicId: string, userId: number) {
  const { rows } = await t.pool.query(
    'SELECT i.kit_id AS "kitId", i.paddle_price_id AS "paddlePriceId", i.price_cents AS "priceCents" FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.public_id = $1 ORDER BY i.id',
    [publicId],
  );
  return sandboxTransactionCompleted({ publicId, userId, items: rows });
}

/** A full refund of a payment (of some of its lines when given), approved unless told. */
const refundOf = (paid: { data: { id: string } }, lineIds: string[] = [], status = 'approved') => ({
  event_id: `evt_refund_${Math.random().toString(36).slice(2)}`,
  event_type: 'adjustment.created',
  occurred_at: new Date().toISOString(),
  data: {
    id: `adj_${Math.random().toString(36).slice(2)}`,
    action: 'refund',
    status,
    transaction_id: paid.data.id,
    items: lineIds.map((item_id) => ({ item_id, type: 'full' })),
  },
});

/** An approved refund of part of one line (`cents` of it, tax included as Paddle sends it, no tax here). */
const partialRefundOf = (
  paid: { data: { id: string } },
  lineId: string,
  cents: number,
  adjustmentId = `adj_${Math.random().toString(36).slice(2)}`,
  eventType = 'adjustment.updated',
) => ({
  event_id: `evt_partial_${Math.random().toString(36).slice(2)}`,
  event_type: eventType,
  occurred_at: new Date().toISOString(),
  data: {
    id: adjustmentId,
    action: 'refund',
    type: 'partial',
    status: 'approved',
    transaction_id: paid.data.id,
    items: [
      {
        item_id: lineId,
        type: 'partial',
        amount: String(cents),
        totals: { subtotal: String(cents), tax: '0', total: String(cents) },
      },
    ],
  },
});

const lineOf = async (publicId: string) =>
  (
    await t.pool.query(
      `SELECT i.refunded_cents, i.refunded_at IS NOT NULL AS refunded, o.status FROM order_items i
         JOIN orders o ON o.id = i.order_id WHERE o.public_id = $1`,
      [publicId],
    )
  ).rows[0];

const ownedBy = async (userId: number) =>
  (
    await t.pool.query('SELECT kit_id FROM entitlements WHERE user_id = $1 AND revoked_at IS NULL ORDER BY kit_id', [
      userId,
    ])
  ).rows.map((r) => r.kit_id);

describe('POST /api/cart', () => {
  it('prices from the database, ignores unknown ids and client prices, and marks owned kits', async () => {
    const anonymous = await createClient(t.app);
    const res = await anonymous.post('/api/cart', {
      products: [kits[0]!.id, 99999, kits[1]!.id, kits[0]!.id],
      price: 1,
    });
    expect(res.statusCode).toBe(200);
    const line = (kit: (typeof kits)[number], title: string, price: number) => ({
      id: kit.id,
      title,
      spot: expect.any(String),
      price,
      purchased: false,
      paddle_id: kit.paddle_price_id,
      original_price: price,
      upgrade: null,
      included_in: null,
      // The cart shows the kit's first screenshot at thumbnail size.
      thumbnail_url: expect.stringMatching(/^media\/.+/),
    });
    expect(res.json()).toEqual({
      items: [line(kits[0]!, 'Alpha Kit', 49), line(kits[1]!, 'Beta Kit', 19.5)],
      order_id: null,
      email: null,
      discount: null,
      subtotal: 68.5,
      total: 68.5,
    });
    const { browser, user } = await buyer();
    await grantKits(t.pool, user.id, [kits[1]!.id]);
    const mine = (await browser.post('/api/cart', { products: [kits[0]!.id, kits[1]!.id] })).json();
    expect(mine.items.map((i: { purchased: boolean }) => i.purchased)).toEqual([false, true]);
  });

  it.each([
    { products: 'x' },
    { products: [1.5] },
    { products: [-1] },
    {},
    { products: Array.from({ length: 101 }, (_, i) => i + 1) },
  ])('answers bad input %o with 422', async (body) => {
    const res = await (await createClient(t.app)).post('/api/cart', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^products/);
  });

  it('answers 403 to a checkout without a session', async () => {
    const res = await (await createClient(t.app)).post('/api/cart', { products: [kits[0]!.id], checkout: true });
    expect(res.statusCode).toBe(403);
  });

  it('creates one pending order for the unowned kits, reuses it, and makes a new one when the cart changes', async () => {
    const { browser, user } = await buyer();
    await grantKits(t.pool, user.id, [kits[1]!.id]);
    const first = await orderFor(browser, [kits[0]!.id, kits[1]!.id]);
    expect(first.order_id).toMatch(/^ord_[0-9a-f]{24}$/);
    expect(first.email).toBe(user.email);
    expect((await orderFor(browser, [kits[1]!.id, kits[0]!.id])).order_id).toBe(first.order_id);
    const { rows } = await t.pool.query(
      'SELECT o.total_cents, i.kit_id, i.title, i.price_cents FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.public_id = $1',
      [first.order_id],
    );
    expect(rows).toEqual([{ total_cents: 4900, kit_id: kits[0]!.id, title: 'Alpha Kit', price_cents: 4900 }]);
    await t.pool.query('DELETE FROM entitlements WHERE user_id = $1', [user.id]);
    expect((await orderFor(browser, [kits[0]!.id, kits[1]!.id])).order_id).not.toBe(first.order_id);
    expect((await orderFor(browser, [kits[1]!.id])).order_id).not.toBe(first.order_id);
  });
});

describe('GET /api/orders/:order_id', () => {
  it("answers the buyer's own order with its kits as sold, pending and then paid", async () => {
    const { browser } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id, kits[1]!.id]);
    const pending = await browser.get(`/api/orders/${order_id}`);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({
      order_id,
      status: 'pending',
      items: [
        { id: kits[0]!.id, title: 'Alpha Kit', refunded: 0 },
        { id: kits[1]!.id, title: expect.any(String), refunded: 0 },
      ],
    });
    expect((await sandboxPay(browser, order_id)).statusCode).toBe(200);
    expect((await browser.get(`/api/orders/${order_id}`)).json().status).toBe('paid');
  });

  it("answers 404 to someone else's order or an unknown one, and 401 signed out", async () => {
    const { browser } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const other = await buyer();
    const refused = await other.browser.get(`/api/orders/${order_id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'We could not find that order.' });
    expect((await browser.get(`/api/orders/ord_${'0'.repeat(24)}`)).statusCode).toBe(404);
    expect((await browser.get(`/api/orders/${'x'.repeat(65)}`)).statusCode).toBe(404);
    expect((await (await createClient(t.app)).get(`/api/orders/${order_id}`)).statusCode).toBe(401);
  });
});

describe('POST /api/webhooks/paddle', () => {
  it('fulfils a valid transaction.completed: order paid, kits owned, confirmation mailed', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id, kits[1]!.id]);
    const event = await paidEventFor(order_id, user.id);
    const res = await deliver(event);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, outcome: 'fulfilled' });
    expect(await ownedBy(user.id)).toEqual([kits[0]!.id, kits[1]!.id]);
    const { rows } = await t.pool.query('SELECT status, transaction_id FROM orders WHERE public_id = $1', [order_id]);
    expect(rows[0]).toEqual({ status: 'paid', transaction_id: event.data.id });
    await t.deliverMail();
    expect(t.mails.at(-1)).toMatchObject({ to: user.email, subject: expect.stringContaining(order_id) });
    expect(t.mails.at(-1)!.text).toContain('http://shop.test/user-panel');
    // Bought kits show as purchased at the next checkout.
    expect((await orderFor(browser, [kits[0]!.id])).items[0].purchased).toBe(true);
  });

  it('answers 5xx when fulfilment fails half-way, changes nothing, and succeeds when the provider retries', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const event = await paidEventFor(order_id, user.id);
    // The confirmation mail cannot be queued: the whole fulfilment must roll back.
    await t.pool.query('ALTER TABLE mail_outbox RENAME TO mail_outbox_away');
    let failed: Awaited<ReturnType<typeof deliver>>;
    try {
      failed = await deliver(event);
    } finally {
      await t.pool.query('ALTER TABLE mail_outbox_away RENAME TO mail_outbox');
    }
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ message: expect.any(String) });
    expect(await ownedBy(user.id)).toEqual([]);
    expect(
      (await t.pool.query('SELECT count(*)::int AS n FROM payment_events WHERE event_id = $1', [event.event_id]))
        .rows[0].n,
    ).toBe(0);
    const retry = await deliver(event);
    expect(retry.json().outcome).toBe('fulfilled');
    expect(await ownedBy(user.id)).toEqual([kits[0]!.id]);
  });

  it('answers a repeated event 200 and changes nothing', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const event = await paidEventFor(order_id, user.id);
    expect((await deliver(event)).json().outcome).toBe('fulfilled');
    const again = await deliver(event);
    expect(again.statusCode).toBe(200);
    expect(again.json().outcome).toBe('duplicate');
    expect(
      (await t.pool.query('SELECT count(*)::int AS n FROM entitlements WHERE user_id = $1', [user.id])).rows[0].n,
    ).toBe(1);
  });

  it('makes exactly one entitlement from 20 concurrent deliveries of one event', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const event = await paidEventFor(order_id, user.id);
    const results = await Promise.all(Array.from({ length: 20 }, () => deliver(event)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(results.filter((r) => r.json().outcome === 'fulfilled')).toHaveLength(1);
    expect(
      (await t.pool.query('SELECT count(*)::int AS n FROM entitlements WHERE user_id = $1', [user.id])).rows[0].n,
    ).toBe(1);
    expect(
      (await t.pool.query('SELECT count(*)::int AS n FROM payment_events WHERE event_id = $1', [event.event_id]))
        .rows[0].n,
    ).toBe(1);
  });

  it.each([
    ['a tampered body', { tamper: true }],
    ['a wrong key', { key: 'not-the-secret' }],
    ['a stale timestamp', { ts: Math.floor(Date.now() / 1000) - 60 }],
  ])('answers 400 to %s and grants nothing', async (_label, options) => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const event = await paidEventFor(order_id, user.id);
    const body = JSON.stringify(event);
    const signed = signPaddleBody(body, (options as { key?: string }).key ?? secret, (options as { ts?: number }).ts);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/paddle',
      headers: { 'content-type': 'application/json', 'paddle-signature': signed },
      payload: (options as { tamper?: boolean }).tamper ? body.replace('4900', '1') : body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('message');
    expect(await ownedBy(user.id)).toEqual([]);
  });

  it('answers 400 without a signature and to a body that is not a Paddle event', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/webhooks/paddle',
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        })
      ).statusCode,
    ).toBe(400);
    expect((await deliver({ hello: 'world' })).statusCode).toBe(400);
  });

  it('stores and flags an event whose amounts or items do not match the order, or whose order is unknown', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const cheap = await paidEventFor(order_id, user.id);
    cheap.data.items[0]!.price.unit_price.amount = '100';
    const res = await deliver(cheap);
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('flagged');
    expect(await ownedBy(user.id)).toEqual([]);
    const { rows } = await t.pool.query('SELECT status, flagged_reason FROM orders WHERE public_id = $1', [order_id]);
    expect(rows[0].status).toBe('flagged');
    expect(rows[0].flagged_reason).toMatch(/unit price 100/);

    const unknown = await paidEventFor(order_id, user.id);
    unknown.data.custom_data.order_id = 'ord_unknown';
    expect((await deliver(unknown)).json().outcome).toBe('flagged');
    const stored = await t.pool.query('SELECT outcome, detail FROM payment_events WHERE event_id = $1', [
      unknown.event_id,
    ]);
    expect(stored.rows[0]).toEqual({ outcome: 'flagged', detail: 'No order ord_unknown.' });
  });

  it('revokes refunded kits: a partial refund only its items, an approved refund that came first waits for its payment', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id, kits[1]!.id]);
    const paid = await paidEventFor(order_id, user.id);
    const refund = (items: string[], status = 'approved') => refundOf(paid, items, status);
    const [alphaLine, betaLine] = paid.data.details.line_items;
    // Out of order: the refund of one item arrives before the payment.
    expect((await deliver(refund([betaLine!.id]))).json().outcome).toBe('waiting');
    expect((await deliver(paid)).json().outcome).toBe('fulfilled');
    expect(await ownedBy(user.id)).toEqual([kits[0]!.id]);
    expect((await t.pool.query('SELECT status FROM orders WHERE public_id = $1', [order_id])).rows[0].status).toBe(
      'partially_refunded',
    );
    // A pending refund changes nothing; an approved chargeback of the rest revokes it.
    expect((await deliver(refund([alphaLine!.id], 'pending_approval'))).json().outcome).toBe('ignored');
    const chargeback = { ...refund([alphaLine!.id]), event_type: 'adjustment.updated' };
    chargeback.data.action = 'chargeback';
    expect((await deliver(chargeback)).json().outcome).toBe('refunded');
    expect(await ownedBy(user.id)).toEqual([]);
    expect((await t.pool.query('SELECT status FROM orders WHERE public_id = $1', [order_id])).rows[0].status).toBe(
      'refunded',
    );
  });

  it('records a partial refund by amount, once per adjustment, and keeps the kit; partial refunds adding up to the line take it', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const paid = await paidEventFor(order_id, user.id);
    expect((await deliver(paid)).json().outcome).toBe('fulfilled');
    const [line] = paid.data.details.line_items;
    const price = kits[0]!.price_cents;

    const refundMails = async () =>
      (
        await t.pool.query('SELECT "to", text FROM mail_outbox WHERE ref = $1 AND subject LIKE $2 ORDER BY id', [
          order_id,
          'Refund of%',
        ])
      ).rows;
    const first = partialRefundOf(paid, line!.id, 100);
    expect((await deliver(first)).json().outcome).toBe('refunded');
    // The buyer is told the amount and that the kit stays.
    const told = await refundMails();
    expect(told).toEqual([{ to: user.email, text: expect.stringContaining('we refunded USD 1.00') }]);
    expect(told[0].text).toContain('Still yours, as before: Alpha Kit.');
    expect(told[0].text).not.toContain('No longer in your library');
    expect(await ownedBy(user.id)).toEqual([kits[0]!.id]);
    expect(await lineOf(order_id)).toEqual({ refunded_cents: 100, refunded: false, status: 'partially_refunded' });
    const seen = (await browser.get(`/api/orders/${order_id}`)).json();
    expect(seen).toMatchObject({ status: 'partially_refunded', items: [{ id: kits[0]!.id, refunded: 1 }] });
    expect((await browser.get(`/download/${kits[0]!.id}`)).statusCode).not.toBe(403);
    // The same adjustment again (created, then updated): recorded once.
    const repeat = partialRefundOf(paid, line!.id, 100, first.data.id, 'adjustment.created');
    expect((await deliver(repeat)).json().outcome).toBe('refunded');
    expect((await lineOf(order_id)).refunded_cents).toBe(100);
    // Neither that nor the same event delivered again mails anything more.
    expect((await deliver(first)).json().outcome).toBe('duplicate');
    expect(await refundMails()).toHaveLength(1);

    // A second partial refund of the rest: the line is refunded in full, the kit goes.
    expect((await deliver(partialRefundOf(paid, line!.id, price - 100))).json().outcome).toBe('refunded');
    expect(await lineOf(order_id)).toEqual({ refunded_cents: price, refunded: true, status: 'refunded' });
    expect(await ownedBy(user.id)).toEqual([]);
    const last = (await refundMails())[1]!.text;
    expect(last).toContain(`we refunded USD ${((price - 100) / 100).toFixed(2)}`);
    expect(last).toContain('No longer in your library: Alpha Kit.');
    expect(await refundMails()).toHaveLength(2);
    const events = await t.pool.query('SELECT detail FROM payment_events WHERE event_id = $1', [first.event_id]);
    expect(events.rows[0].detail).toBe(
      `refund: Alpha Kit (USD 1.00 of USD ${(price / 100).toFixed(2)} refunded, kept)`,
    );
  });

  it('refuses a partial adjustment item without an amount, changing nothing', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const paid = await paidEventFor(order_id, user.id);
    await deliver(paid);
    const bad = partialRefundOf(paid, paid.data.details.line_items[0]!.id, 100);
    delete (bad.data.items[0] as { amount?: string }).amount;
    delete (bad.data.items[0] as { totals?: object }).totals;
    expect((await deliver(bad)).statusCode).toBe(400);
    expect(await lineOf(order_id)).toEqual({ refunded_cents: 0, refunded: false, status: 'paid' });
    expect(await ownedBy(user.id)).toEqual([kits[0]!.id]);
  });

  it('keeps a kit while another paid order still grants it; refunding both takes it away', async () => {
    const { browser, user } = await buyer();
    const [alpha, beta] = [kits[0]!.id, kits[1]!.id];
    // Two orders open at once, both holding Alpha (two tabs), and both paid.
    const first = await orderFor(browser, [alpha]);
    const second = await orderFor(browser, [alpha, beta]);
    const firstPaid = await paidEventFor(first.order_id, user.id);
    const secondPaid = await paidEventFor(second.order_id, user.id);
    expect((await deliver(firstPaid)).json().outcome).toBe('fulfilled');
    expect((await deliver(secondPaid)).json().outcome).toBe('fulfilled');
    expect(await ownedBy(user.id)).toEqual([alpha, beta]);

    expect((await deliver(refundOf(firstPaid))).json().outcome).toBe('refunded');
    expect(await ownedBy(user.id)).toEqual([alpha, beta]);
    const alphaLine = secondPaid.data.details.line_items.find((l) => l.price_id === kits[0]!.paddle_price_id)!;
    expect((await deliver(refundOf(secondPaid, [alphaLine.id]))).json().outcome).toBe('refunded');
    expect(await ownedBy(user.id)).toEqual([beta]);
  });

  it('takes a kit away when the refunds of both orders that paid for it arrive at once', async () => {
    // Several buyers at once, so that the two refunds of one buyer really overlap.
    const buyers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const { browser, user } = await buyer();
        const first = await orderFor(browser, [kits[0]!.id]);
        const second = await orderFor(browser, [kits[0]!.id, kits[1]!.id]);
        const paid = [await paidEventFor(first.order_id, user.id), await paidEventFor(second.order_id, user.id)];
        for (const event of paid) expect((await deliver(event)).json().outcome).toBe('fulfilled');
        return { user, paid };
      }),
    );
    const outcomes = await Promise.all(buyers.flatMap(({ paid }) => paid.map((event) => deliver(refundOf(event)))));
    expect(outcomes.map((r) => r.json().outcome)).toEqual(Array(8).fill('refunded'));
    for (const { user } of buyers) expect(await ownedBy(user.id)).toEqual([]);
  });

  it('grants nothing for a stale order whose kits are all owned: the payment is stored flagged for a refund', async () => {
    const { browser, user } = await buyer();
    const stale = await orderFor(browser, [kits[0]!.id]);
    const bought = await orderFor(browser, [kits[0]!.id, kits[1]!.id]);
    expect((await deliver(await paidEventFor(bought.order_id, user.id))).json().outcome).toBe('fulfilled');
    const mailsBefore = (await t.pool.query('SELECT count(*)::int AS n FROM mail_outbox')).rows[0].n;

    const event = await paidEventFor(stale.order_id, user.id);
    const res = await deliver(event);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, outcome: 'flagged' });
    const { rows } = await t.pool.query(
      'SELECT status, flagged_reason, transaction_id FROM orders WHERE public_id = $1',
      [stale.order_id],
    );
    expect(rows[0]).toEqual({
      status: 'flagged',
      flagged_reason: expect.stringMatching(/already owned.*refund/),
      transaction_id: event.data.id,
    });
    const sources = await t.pool.query('SELECT DISTINCT source FROM entitlements WHERE user_id = $1', [user.id]);
    expect(sources.rows).toEqual([{ source: bought.order_id }]);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM mail_outbox')).rows[0].n).toBe(mailsBefore);
    // The owner refunds it; the kits stay, paid for by the other order.
    expect((await deliver(refundOf(event))).json().outcome).toBe('refunded');
    expect(await ownedBy(user.id)).toEqual([kits[0]!.id, kits[1]!.id]);
  });
});

describe('payment events that arrive together', () => {
  /**
   * The queue the webhook route uses, over a database handle that counts its transactions and,
   * with `failFirst`, loses the first one after its work, before the commit (it rolls back).
   */
  function countedQueue(options: { failFirst?: boolean; remembered?: number } = {}) {
    const counter = { transactions: 0, mailNudges: 0 };
    const db = Object.create(t.db) as TestApp['db'];
    db.transaction = (async (work: Parameters<TestApp['db']['transaction']>[0]) => {
      const failing = options.failFirst && counter.transactions === 0;
      counter.transactions++;
      return t.db.transaction(async (tx) => {
        const result = await work(tx);
        if (failing) throw new Error('the connection was lost before the commit');
        return result;
      });
    }) as TestApp['db']['transaction'];
    const queue = createPaymentEventQueue(
      { db, config: t.config, mailQueued: () => counter.mailNudges++ },
      undefined,
      options.remembered,
    );
    return { counter, apply: (event: object) => queue.apply(readPaddleEvent(event), event) };
  }

  async function pendingOrder() {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    return { user, publicId: order_id as string, event: await paidEventFor(order_id, user.id) };
  }

  it('applies a burst in one transaction, each event with its own outcome', async () => {
    const [a, b, c] = [await pendingOrder(), await pendingOrder(), await pendingOrder()];
    const mismatched = structuredClone(c.event);
    mismatched.data.items[0]!.price.unit_price.amount = '1';
    const unknown = structuredClone(a.event);
    unknown.event_id = 'evt_unknown_order';
    unknown.data.custom_data.order_id = 'ord_000000000000000000000000';
    const { counter, apply } = countedQueue();

    const outcomes = await Promise.all([a.event, b.event, a.event, unknown, mismatched].map(apply));

    expect(outcomes).toEqual(['fulfilled', 'fulfilled', 'duplicate', 'flagged', 'flagged']);
    expect(counter.transactions).toBe(1);
    expect(counter.mailNudges).toBe(1);
    expect(await ownedBy(a.user.id)).toEqual([kits[0]!.id]);
    expect(await ownedBy(b.user.id)).toEqual([kits[0]!.id]);
    expect(await ownedBy(c.user.id)).toEqual([]);
    const { rows } = await t.pool.query(
      'SELECT public_id, status, flagged_reason FROM orders WHERE public_id = ANY($1) ORDER BY id',
      [[a.publicId, b.publicId, c.publicId]],
    );
    expect(rows.map((r) => r.status)).toEqual(['paid', 'paid', 'flagged']);
    expect(rows[2].flagged_reason).toMatch(/unit price 1 USD/);
    const mails = await t.pool.query('SELECT "to" FROM mail_outbox WHERE "to" = ANY($1)', [
      [a.user.email, b.user.email, c.user.email],
    ]);
    expect(mails.rows.map((r) => r.to).sort()).toEqual([a.user.email, b.user.email].sort());
    const events = await t.pool.query('SELECT outcome FROM payment_events WHERE event_id = $1', [unknown.event_id]);
    expect(events.rows).toEqual([{ outcome: 'flagged' }]);
  });

  it('answers a repeat that arrives while the event is applied once that commits, without a transaction of its own', async () => {
    const a = await pendingOrder();
    const { counter, apply } = countedQueue();
    const first = apply(a.event);
    await new Promise((resolve) => setImmediate(resolve)); // the first delivery's group is on its way
    expect(await Promise.all([first, apply(a.event), apply(a.event)])).toEqual(['fulfilled', 'duplicate', 'duplicate']);
    expect(counter.transactions).toBe(1);
    expect(await ownedBy(a.user.id)).toEqual([kits[0]!.id]);
  });

  it('answers a repeat of an event it stored before without a transaction, and asks the database once it forgot it', async () => {
    const [a, b] = [await pendingOrder(), await pendingOrder()];
    const { counter, apply } = countedQueue({ remembered: 1 });
    expect(await apply(a.event)).toBe('fulfilled');
    expect(await apply(a.event)).toBe('duplicate');
    expect(counter.transactions).toBe(1);
    // Only the last stored event is remembered here: a's repeat is checked against its stored row.
    expect(await apply(b.event)).toBe('fulfilled');
    expect(await apply(a.event)).toBe('duplicate');
    expect(counter.transactions).toBe(3);
    expect(await ownedBy(a.user.id)).toEqual([kits[0]!.id]);
  });

  it('applies a repeat itself when the delivery it waited for rolled back', async () => {
    const a = await pendingOrder();
    const { counter, apply } = countedQueue({ failFirst: true });
    const results = await Promise.allSettled([apply(a.event), apply(a.event)]);
    expect(results[0]).toMatchObject({ status: 'rejected' });
    expect(results[1]).toEqual({ status: 'fulfilled', value: 'fulfilled' });
    expect(counter.transactions).toBe(2);
    expect(await ownedBy(a.user.id)).toEqual([kits[0]!.id]);
    const { rows } = await t.pool.query('SELECT outcome FROM payment_events WHERE event_id = $1', [a.event.event_id]);
    expect(rows).toEqual([{ outcome: 'fulfilled' }]);
  });

  it('pays an order once when two different payments for it arrive together', async () => {
    const a = await pendingOrder();
    const second = await paidEventFor(a.publicId, a.user.id);
    const { apply } = countedQueue();
    expect(await Promise.all([a.event, second].map(apply))).toEqual(['fulfilled', 'flagged']);
    const { rows } = await t.pool.query('SELECT status, transaction_id FROM orders WHERE public_id = $1', [a.publicId]);
    expect(rows).toEqual([{ status: 'paid', transaction_id: a.event.data.id }]);
  });

  it('tries the events of a failed group one by one: only the failing one fails, and its retry succeeds', async () => {
    const [good, bad] = [await pendingOrder(), await pendingOrder()];
    // The database refuses to mark one order paid, as a failing disk or constraint would.
    await t.pool.query(`CREATE FUNCTION refuse_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.public_id = '${bad.publicId}' AND NEW.status = 'paid' THEN RAISE EXCEPTION 'refused'; END IF;
      RETURN NEW; END $$`);
    await t.pool.query(
      'CREATE TRIGGER refuse_order BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION refuse_order()',
    );
    const { counter, apply } = countedQueue();
    let results: PromiseSettledResult<string>[];
    try {
      results = await Promise.allSettled([good.event, bad.event].map(apply));
    } finally {
      await t.pool.query('DROP TRIGGER refuse_order ON orders; DROP FUNCTION refuse_order()');
    }
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'fulfilled' });
    expect(results[1]).toMatchObject({ status: 'rejected' });
    expect(counter.transactions).toBe(3); // the group, then each on its own
    expect(await ownedBy(good.user.id)).toEqual([kits[0]!.id]);
    expect(await ownedBy(bad.user.id)).toEqual([]);
    expect(await apply(bad.event)).toBe('fulfilled');
    expect(await ownedBy(bad.user.id)).toEqual([kits[0]!.id]);
  });
});

describe('sandbox checkout', () => {
  it('serves the stylesheet and script the page links to, from their own files', async () => {
    const { browser } = await buyer();
    const { order_id } = await orderFor(browser, [kits[1]!.id]);
    const page = (await browser.get(`/sandbox/checkout?order_id=${order_id}`)).body;
    for (const [file, type] of [
      ['checkout.css', 'text/css'],
      ['checkout.js', 'text/javascript'],
    ] as const) {
      expect(page).toContain(`/sandbox/${file}"`);
      const res = await browser.get(`/sandbox/${file}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain(type);
      expect(res.body).toBe(readFileSync(new URL(`./sandbox/${file}`, import.meta.url), 'utf8'));
    }
  });

  it('shows the test card form inside the frame and pays through the webhook', async () => {
    const { browser, user } = await buyer();
    const { order_id } = await orderFor(browser, [kits[1]!.id]);
    const page = await browser.get(`/sandbox/checkout?order_id=${order_id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Test payment');
    expect(page.body).toContain('<label for="card">Card number</label>');
    expect(page.body).toContain('>Pay</button>');
    const csrf = JSON.parse(/id="sandbox-data">(.*?)<\/script>/.exec(page.body)![1]!).csrf;

    const declined = await browser.post(
      '/sandbox/checkout/pay',
      { order_id, card_number: '4000 0000 0000 0002' },
      { 'x-csrf-token': csrf },
    );
    expect(declined.statusCode).toBe(400);
    expect(declined.json().message).toMatch(/declined/);
    expect(await ownedBy(user.id)).toEqual([]);

    const paid = await browser.post(
      '/sandbox/checkout/pay',
      { order_id, card_number: '4242 4242 4242 4242' },
      { 'x-csrf-token': csrf },
    );
    expect(paid.json()).toEqual({ ok: true, redirect: '/checkout?status=success' });
    expect(await ownedBy(user.id)).toEqual([kits[1]!.id]);
    const again = await browser.post(
      '/sandbox/checkout/pay',
      { order_id, card_number: '4242424242424242' },
      { 'x-csrf-token': csrf },
    );
    expect(again.statusCode).toBe(409);
  });

  it('refuses to pay a stale order holding kits the buyer owns by now, and grants nothing', async () => {
    const { browser, user } = await buyer();
    const [alpha, beta] = [kits[0]!.id, kits[1]!.id];
    // Three orders open at once (tabs); paying two of them makes the third stale.
    const alphaOnly = await orderFor(browser, [alpha]);
    const both = await orderFor(browser, [alpha, beta]);
    const betaOnly = await orderFor(browser, [beta]);
    const refused = async (message: string) => {
      const res = await sandboxPay(browser, both.order_id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message });
      const { rows } = await t.pool.query('SELECT status FROM orders WHERE public_id = $1', [both.order_id]);
      expect(rows[0].status).toBe('pending');
    };
    expect((await sandboxPay(browser, betaOnly.order_id)).statusCode).toBe(200);
    await refused('You already own Beta Kit. Reload the checkout page: it charges only for kits you do not own yet.');
    expect(await ownedBy(user.id)).toEqual([beta]);
    expect((await sandboxPay(browser, alphaOnly.order_id)).statusCode).toBe(200);
    await refused(
      'You already own Alpha Kit, Beta Kit. Reload the checkout page: it charges only for kits you do not own yet.',
    );
    expect(await ownedBy(user.id)).toEqual([alpha, beta]);
    const events = await t.pool.query(
      "SELECT count(*)::int AS n FROM payment_events WHERE payload->'data'->'custom_data'->>'order_id' = $1",
      [both.order_id],
    );
    expect(events.rows[0].n).toBe(0);
  });

  it("refuses someone else's order and a signed-out payer", async () => {
    const { browser } = await buyer();
    const { order_id } = await orderFor(browser, [kits[0]!.id]);
    const other = await buyer();
    expect(
      (await other.browser.post('/sandbox/checkout/pay', { order_id, card_number: '4242424242424242' })).statusCode,
    ).toBe(404);
    expect(
      (await (await createClient(t.app)).post('/sandbox/checkout/pay', { order_id, card_number: '4242424242424242' }))
        .statusCode,
    ).toBe(401);
  });
});
