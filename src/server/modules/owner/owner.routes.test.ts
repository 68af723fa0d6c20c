import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createClient,
  deliverWebhook,
  sandboxPay,
  signedInClient,
} from '../../../../tests/setup/client.ts';
import { createTestApp, FIXTURE_CATALOG, type TestApp } from '../../../../tests/setup/test-app.ts';
import { sandboxRefundApproved, sandboxWebhookSecret } from '../../integrations/payments/sandbox.ts';
import { openStorage } from '../../integrations/storage/storage.ts';
import { importCatalog } from '../catalog/catalog.import.ts';
import { csvCell, subscribersCsvFile } from '../messages/messages.owner.service.ts';

let t: TestApp;
let owner: Client;
let ownerEmail: string;
let customer: Client;
let kits: { id: number; sef_id: string; title: string; price_cents: number }[];
const webhookSecret = sandboxWebhookSecret('test-secret-test-secret-test-secret');

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'Boss@Shop.test, other@shop.test' });
  kits = (await t.pool.query('SELECT id, sef_id, title, price_cents FROM kits ORDER BY position')).rows;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test', name: 'The Boss' }));
  ownerEmail = 'boss@shop.test';
  ({ client: customer } = await signedInClient(t.app, t.pool));
});
afterAll(() => t.close());

/** A buyer who paid for these kits through the sandbox, with the public order id. */
async function paidBuyer(kitIds: number[], overrides: { name?: string; email?: string } = {}) {
  const { client, user } = await signedInClient(t.app, t.pool, overrides);
  const cart = (await client.post('/api/cart', { products: kitIds, checkout: true })).json();
  const paid = await sandboxPay(client, cart.order_id);
  expect(paid.statusCode).toBe(200);
  return { client, user, orderId: cart.order_id as string };
}

const purchases = async (client: Client) =>
  (await client.post('/api/purchases', {})).json().items.map((p: { sef_id: string }) => p.sef_id);

const lastActivity = async () => (await owner.get('/api/admin/activity?limit=1')).json().items[0];

const GETS = [
  '/api/admin/me',
  '/api/admin/summary',
  '/api/admin/orders',
  '/api/admin/orders/ord_x',
  '/api/admin/customers',
  '/api/admin/customers/1',
  '/api/admin/kits',
  '/api/admin/messages',
  '/api/admin/subscribers',
  '/api/admin/subscribers.csv',
  '/api/admin/activity',
];
const POSTS: [string, object][] = [
  ['/api/admin/orders/ord_x/refund', { reason: 'x' }],
  ['/api/admin/orders/ord_x/resend', {}],
  ['/api/admin/customers/1/grant', { kit_id: 1 }],
  ['/api/admin/customers/1/revoke', { kit_id: 1 }],
  ['/api/admin/customers/1/sign-out', {}],
  ['/api/admin/kits/1', { active: false }],
  ['/api/admin/messages/1/reply', { body: 'hi' }],
];

describe('who may call /api/admin', () => {
  it.each(GETS)('GET %s: 401 signed out, 403 for a customer', async (url) => {
    const anonymous = await createClient(t.app);
    const out = await anonymous.get(url);
    expect(out.statusCode).toBe(401);
    expect(out.json().message).toBeTruthy();
    const denied = await customer.get(url);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBeTruthy();
  });

  it.each(POSTS)('POST %s: 419 without the CSRF header, 401 signed out, 403 for a customer', async (url, body) => {
    const noToken = await owner.post(url, body, { 'x-csrf-token': '' });
    expect(noToken.statusCode).toBe(419);
    expect((await (await createClient(t.app)).post(url, body)).statusCode).toBe(401);
    expect((await customer.post(url, body)).statusCode).toBe(403);
  });

  it('makes owners of verified accounts in OWNER_EMAILS (any case) and of `npm run owner -- add`', async () => {
    expect((await owner.get('/api/admin/me')).json()).toMatchObject({ email: ownerEmail, name: 'The Boss' });
    const { client: unverified } = await signedInClient(t.app, t.pool, { email: 'OTHER@shop.test' });
    await t.pool.query('UPDATE users SET email_verified_at = NULL WHERE email = $1', ['OTHER@shop.test']);
    expect((await unverified.get('/api/admin/me')).statusCode).toBe(403);
    await t.pool.query('UPDATE users SET email_verified_at = now() WHERE email = $1', ['OTHER@shop.test']);
    expect((await unverified.get('/api/admin/me')).statusCode).toBe(200);

    const { client: later, user } = await signedInClient(t.app, t.pool);
    expect((await later.get('/api/admin/me')).statusCode).toBe(403);
    const { addOwner, removeOwner, listOwners } = await import('./owner.service.ts');
    expect(await addOwner(t.db, user.email.toUpperCase())).toBe(true);
    expect((await later.get('/api/admin/me')).statusCode).toBe(200);
    expect(await listOwners(t.db, t.config)).toContainEqual({
      email: user.email.toLowerCase(),
      from: 'database',
      active: true,
    });
    expect(await removeOwner(t.db, user.email)).toBe(true);
    expect((await later.get('/api/admin/me')).statusCode).toBe(403);
  });

  it('marks owner answers no-store and noindex', async () => {
    const res = await owner.get('/api/admin/kits');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
  });
});

describe('orders', () => {
  it('lists orders newest first with buyer and lines, by cursor, and finds them by id, e-mail, name and kit', async () => {
    const a = await paidBuyer([kits[0]!.id], { name: 'Grace Hopper', email: `grace-${Date.now()}@navy.test` });
    const b = await paidBuyer([kits[0]!.id, kits[1]!.id]);
    const first = (await owner.get('/api/admin/orders?limit=1')).json();
    expect(first.items).toHaveLength(1);
    expect(first.items[0]).toEqual({
      id: b.orderId,
      status: 'paid',
      created_at: expect.any(String),
      paid_at: expect.any(String),
      email: b.user.email,
      name: b.user.name,
      total: (kits[0]!.price_cents + kits[1]!.price_cents) / 100,
      lines: [
        {
          kit_id: kits[0]!.id,
          title: kits[0]!.title,
          price: kits[0]!.price_cents / 100,
          refunded: false,
          refunded_amount: 0,
          lapsed: false,
        },
        {
          kit_id: kits[1]!.id,
          title: kits[1]!.title,
          price: kits[1]!.price_cents / 100,
          refunded: false,
          refunded_amount: 0,
          lapsed: false,
        },
      ],
    });
    const second = (await owner.get(`/api/admin/orders?limit=1&cursor=${first.next_cursor}`)).json();
    expect(second.items[0].id).toBe(a.orderId);

    const ids = async (query: string) =>
      (await owner.get(`/api/admin/orders?query=${encodeURIComponent(query)}`))
        .json()
        .items.map((o: { id: string }) => o.id);
    expect(await ids(a.orderId)).toEqual([a.orderId]);
    expect(await ids(a.user.email.toUpperCase())).toEqual([a.orderId]);
    expect(await ids('grace hop')).toEqual([a.orderId]);
    expect(await ids(kits[1]!.title)).toContain(b.orderId);
    expect(await ids(kits[1]!.title)).not.toContain(a.orderId);
    expect(await ids('no such thing 100%')).toEqual([]);
    const paid = (await owner.get('/api/admin/orders?status=paid')).json().items;
    expect(paid.every((o: { status: string }) => o.status === 'paid')).toBe(true);
    expect((await owner.get('/api/admin/orders?status=refunded')).json().items).toEqual([]);
  });

  it('finds the orders of every buyer whose name matches, however many accounts match', async () => {
    // 1,200 older accounts of the same name (no orders), then the one who buys: the newest order
    // must be found, not only those of some first thousand matching accounts.
    await t.pool.query(
      `INSERT INTO users (name, email, password_hash, created_at)
       SELECT 'Wilhelmina Zquux', 'zquux-' || n || '@many.test', 'x', '2024-01-01T00:00:00Z' FROM generate_series(1, 1200) n`,
    );
    const buyer = await paidBuyer([kits[0]!.id], {
      name: 'Wilhelmina Zquux',
      email: `zquux-buyer-${Date.now()}@many.test`,
    });
    const found = (await owner.get('/api/admin/orders?query=zquux')).json();
    expect(found.items.map((o: { id: string }) => o.id)).toEqual([buyer.orderId]);
    expect(found.next_cursor).toBeNull();
    const paid = (await owner.get('/api/admin/orders?query=wilhelmina&status=paid&limit=5')).json();
    expect(paid.items.map((o: { id: string }) => o.id)).toEqual([buyer.orderId]);
  });

  it.each(['status=unknown', 'limit=-1', 'limit=0', 'limit=1.5', 'limit=101', 'limit=x', 'cursor=garbage'])(
    'answers bad input (%s) with 422 and a message',
    async (query) => {
      const res = await owner.get(`/api/admin/orders?${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBeTruthy();
    },
  );

  it('shows one order with its payment events and mails; 404 for an unknown one', async () => {
    const { orderId, user } = await paidBuyer([kits[0]!.id]);
    const res = await owner.get(`/api/admin/orders/${orderId}`);
    expect(res.statusCode).toBe(200);
    const order = res.json();
    expect(order.email).toBe(user.email);
    expect(order.events).toEqual([
      { at: expect.any(String), type: 'transaction.completed', outcome: 'fulfilled', detail: expect.any(String) },
    ]);
    expect(order.mails).toContainEqual({
      at: expect.any(String),
      subject: expect.stringContaining(orderId),
      status: 'queued',
    });
    expect((await owner.get('/api/admin/orders/ord_000')).statusCode).toBe(404);
    expect((await owner.post('/api/admin/orders/ord_000/refund', { reason: 'x' })).statusCode).toBe(404);
    expect((await owner.post('/api/admin/orders/ord_000/resend', {})).statusCode).toBe(404);
  });

  it('tells the owners of each paid order: "New sale: {kit titles}, {total}"', async () => {
    const { orderId } = await paidBuyer([kits[0]!.id, kits[1]!.id]);
    const { rows } = await t.pool.query('SELECT "to", subject FROM mail_outbox WHERE ref = $1 ORDER BY id', [orderId]);
    const total = ((kits[0]!.price_cents + kits[1]!.price_cents) / 100).toFixed(2);
    expect(rows).toContainEqual({
      to: ownerEmail,
      subject: `New sale: ${kits[0]!.title}, ${kits[1]!.title}, USD ${total}`,
    });
    // other@shop.test is in OWNER_EMAILS too, but told only once its account exists and is verified.
    expect(rows.filter((r) => r.subject.startsWith('New sale')).map((r) => r.to)).not.toContain('nobody@shop.test');
  });

  it('refunds one line through the signed webhook: the buyer loses that kit at once and keeps the other', async () => {
    const { client, orderId, user } = await paidBuyer([kits[0]!.id, kits[1]!.id]);
    expect(await purchases(client)).toEqual([kits[0]!.sef_id, kits[1]!.sef_id]);
    const res = await owner.post(`/api/admin/orders/${orderId}/refund`, {
      kit_ids: [kits[1]!.id],
      reason: 'Bought by mistake',
    });
    expect(res.statusCode).toBe(200);
    const order = res.json();
    expect(order.status).toBe('partially_refunded');
    expect(order.refund_requested).toBeUndefined();
    expect(order.lines.map((l: { refunded: boolean }) => l.refunded)).toEqual([false, true]);
    expect(order.events.map((e: { type: string; outcome: string }) => `${e.type} ${e.outcome}`)).toEqual([
      'transaction.completed fulfilled',
      'adjustment.created refunded',
    ]);
    expect(await purchases(client)).toEqual([kits[0]!.sef_id]);
    expect((await client.get(`/download/${kits[1]!.id}`)).statusCode).toBe(403);
    expect((await client.post(`/api/item/${kits[1]!.sef_id}`, {})).statusCode).not.toBe(200);
    // One mail to the buyer: what came back, the kit gone, the kit kept; listed on the order's page.
    const refundMails = async () =>
      (
        await t.pool.query(
          'SELECT "to", subject, text FROM mail_outbox WHERE ref = $1 AND subject LIKE $2 ORDER BY id',
          [orderId, 'Refund of%'],
        )
      ).rows;
    const amount = `USD ${(kits[1]!.price_cents / 100).toFixed(2)}`;
    const [mail] = await refundMails();
    expect(mail).toEqual({
      to: user.email,
      subject: `Refund of ${amount} for your Kitshop order ${orderId}`,
      text: expect.any(String),
    });
    expect(mail.text).toContain(`${kits[1]!.title}: ${amount} refunded in full`);
    expect(mail.text).toContain(`No longer in your library: ${kits[1]!.title}.`);
    expect(mail.text).toContain(`Still yours, as before: ${kits[0]!.title}.`);
    expect(order.mails).toContainEqual({ at: expect.any(String), subject: mail.subject, status: 'queued' });
    expect(await lastActivity()).toEqual({
      at: expect.any(String),
      actor: ownerEmail,
      action: 'refund',
      target: `order ${orderId}`,
      detail: `${kits[1]!.title} (USD ${(kits[1]!.price_cents / 100).toFixed(2)}): Bought by mistake`,
    });
    // The same line again: refused, nothing changes.
    const again = await owner.post(`/api/admin/orders/${orderId}/refund`, { kit_ids: [kits[1]!.id], reason: 'x' });
    expect(again.statusCode).toBe(409);
    // The whole order refunds what is left.
    const rest = (await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked for it' })).json();
    expect(rest.status).toBe('refunded');
    expect(await purchases(client)).toEqual([]);
    const mails = await refundMails();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain(`No longer in your library: ${kits[0]!.title}.`);
    expect(mails[1]!.text).not.toContain('Still yours');
    const summary = (await owner.get('/api/admin/summary')).json();
    expect(summary.refunds).toBeGreaterThanOrEqual((kits[0]!.price_cents + kits[1]!.price_cents) / 100);
  });

  it('shows a partial refund from the provider: partly refunded, the kit kept, the amount in the refunds figure', async () => {
    const { client, orderId } = await paidBuyer([kits[0]!.id]);
    const before = (await owner.get('/api/admin/summary')).json().refunds;
    const { rows } = await t.pool.query(
      'SELECT o.transaction_id, i.transaction_item_id FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.public_id = $1',
      [orderId],
    );
    const partial = sandboxRefundApproved({
      transactionId: rows[0].transaction_id,
      customerId: 'ctm_test',
      reason: 'goodwill',
      lines: [{ itemId: rows[0].transaction_item_id, amountCents: 100, partial: true }],
    });
    expect((await deliverWebhook(t.app, partial, webhookSecret)).json().outcome).toBe('refunded');
    // Delivered again: a duplicate, mailed once.
    expect((await deliverWebhook(t.app, partial, webhookSecret)).json().outcome).toBe('duplicate');
    const order = (await owner.get(`/api/admin/orders/${orderId}`)).json();
    expect(order.status).toBe('partially_refunded');
    const told = order.mails.filter((m: { subject: string }) => m.subject.startsWith('Refund of'));
    expect(told).toEqual([
      { at: expect.any(String), subject: `Refund of USD 1.00 for your Kitshop order ${orderId}`, status: 'queued' },
    ]);
    const { rows: texts } = await t.pool.query('SELECT text FROM mail_outbox WHERE ref = $1 AND subject LIKE $2', [
      orderId,
      'Refund of%',
    ]);
    expect(texts[0].text).toContain(
      `${kits[0]!.title}: USD 1.00 of USD ${(kits[0]!.price_cents / 100).toFixed(2)} refunded so far`,
    );
    expect(texts[0].text).toContain(`Still yours, as before: ${kits[0]!.title}.`);
    expect(order.lines).toEqual([expect.objectContaining({ refunded: false, refunded_amount: 1, lapsed: false })]);
    expect(await purchases(client)).toEqual([kits[0]!.sef_id]);
    expect((await owner.get('/api/admin/summary')).json().refunds).toBeCloseTo(before + 1, 2);
    // The owner's refund of the line gives back the rest.
    const rest = await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked for it' });
    expect(rest.json()).toMatchObject({
      status: 'refunded',
      lines: [{ refunded: true, refunded_amount: kits[0]!.price_cents / 100 }],
    });
    expect((await lastActivity()).detail).toBe(
      `${kits[0]!.title} (USD ${((kits[0]!.price_cents - 100) / 100).toFixed(2)}): Asked for it`,
    );
    expect((await owner.get('/api/admin/summary')).json().refunds).toBeCloseTo(before + kits[0]!.price_cents / 100, 2);
    expect(await purchases(client)).toEqual([]);
  });

  it('refuses a refund of a line not in the order, without a reason, or of an unpaid order, changing nothing', async () => {
    const { orderId } = await paidBuyer([kits[0]!.id]);
    const before = await lastActivity();
    const notInOrder = await owner.post(`/api/admin/orders/${orderId}/refund`, { kit_ids: [kits[1]!.id], reason: 'x' });
    expect(notInOrder.statusCode).toBe(422);
    expect(notInOrder.json().message).toMatch(/not in order/);
    expect((await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: '' })).statusCode).toBe(422);
    expect((await owner.post(`/api/admin/orders/${orderId}/refund`, { kit_ids: [], reason: 'x' })).statusCode).toBe(
      422,
    );
    expect((await owner.post(`/api/admin/orders/${orderId}/refund`, { kit_ids: ['1'], reason: 'x' })).statusCode).toBe(
      422,
    );
    const { client } = await signedInClient(t.app, t.pool);
    const pending = (await client.post('/api/cart', { products: [kits[0]!.id], checkout: true })).json().order_id;
    expect((await owner.post(`/api/admin/orders/${pending}/refund`, { reason: 'x' })).statusCode).toBe(409);
    expect((await owner.post(`/api/admin/orders/${pending}/resend`, {})).statusCode).toBe(409);
    expect((await owner.get(`/api/admin/orders/${orderId}`)).json().status).toBe('paid');
    expect(await lastActivity()).toEqual(before);
  });

  it('resends the receipt through the outbox and logs it', async () => {
    const { orderId, user } = await paidBuyer([kits[0]!.id]);
    const res = await owner.post(`/api/admin/orders/${orderId}/resend`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const { rows } = await t.pool.query('SELECT "to" FROM mail_outbox WHERE ref = $1 AND subject LIKE $2', [
      orderId,
      `%order ${orderId}`,
    ]);
    expect(rows.map((r) => r.to)).toEqual([user.email, user.email]);
    expect(await lastActivity()).toMatchObject({ action: 'resend receipt', target: `order ${orderId}` });
  });
});

describe('customers', () => {
  it('lists customers with orders and spend, searches them, and shows one with kits, downloads and orders', async () => {
    const { user, orderId, client } = await paidBuyer([kits[0]!.id], { name: 'Katherine Johnson' });
    expect((await client.get(`/download/${kits[0]!.id}`)).statusCode).toBe(200);
    const list = (await owner.get('/api/admin/customers?query=katherine')).json();
    expect(list.items).toEqual([
      {
        id: user.id,
        email: user.email,
        name: 'Katherine Johnson',
        created_at: expect.any(String),
        verified: true,
        orders: 1,
        spent: kits[0]!.price_cents / 100,
        last_sign_in: expect.any(String),
      },
    ]);
    const page = (await owner.get('/api/admin/customers?limit=2')).json();
    expect(page.items).toHaveLength(2);
    const next = (await owner.get(`/api/admin/customers?limit=2&cursor=${page.next_cursor}`)).json();
    expect(next.items[0].id).toBeLessThan(page.items[1].id);

    const detail = (await owner.get(`/api/admin/customers/${user.id}`)).json();
    expect(detail.kits).toEqual([
      {
        kit_id: kits[0]!.id,
        title: kits[0]!.title,
        source: 'order',
        order_id: orderId,
        granted_at: expect.any(String),
      },
    ]);
    expect(detail.downloads).toEqual([{ kit_id: kits[0]!.id, version: expect.any(String), at: expect.any(String) }]);
    expect(detail.order_list).toEqual([
      { id: orderId, status: 'paid', created_at: expect.any(String), total: kits[0]!.price_cents / 100 },
    ]);
    expect((await owner.get('/api/admin/customers/999999')).statusCode).toBe(404);
    const malformed = await owner.get('/api/admin/customers/abc');
    expect([malformed.statusCode, malformed.json().message]).toEqual([404, 'No customer abc.']);
    expect((await owner.get('/api/admin/customers/0')).statusCode).toBe(404);
    expect((await owner.get('/api/admin/customers?limit=-3')).statusCode).toBe(422);
  });

  it('grants a kit at once (purchases, download, guide) and revokes it at once, each logged', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const granted = await owner.post(`/api/admin/customers/${user.id}/grant`, {
      kit_id: kits[1]!.id,
      note: 'Conference prize',
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().kits).toEqual([
      { kit_id: kits[1]!.id, title: kits[1]!.title, source: 'grant', order_id: null, granted_at: expect.any(String) },
    ]);
    expect(await purchases(client)).toEqual([kits[1]!.sef_id]);
    expect((await client.get(`/download/${kits[1]!.id}`)).statusCode).toBe(200);
    expect((await client.post(`/api/item/${kits[1]!.sef_id}`, {})).statusCode).toBe(200);
    expect(await lastActivity()).toMatchObject({
      action: 'grant kit',
      target: `customer ${user.id}`,
      detail: `${kits[1]!.title} to ${user.email}: Conference prize`,
    });
    expect((await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: kits[1]!.id })).statusCode).toBe(409);
    const mailsTo = async () =>
      (await t.pool.query('SELECT subject, text FROM mail_outbox WHERE "to" = $1 ORDER BY id', [user.email])).rows;
    const [grantMail] = (await mailsTo()).filter((m) => m.subject.includes(kits[1]!.title));
    expect(grantMail).toEqual({ subject: `${kits[1]!.title} is in your Kitshop library`, text: expect.any(String) });
    expect(grantMail.text).toContain('http://shop.test/user-panel');

    const revoked = await owner.post(`/api/admin/customers/${user.id}/revoke`, { kit_id: kits[1]!.id, note: 'Oops' });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().kits).toEqual([]);
    expect(await purchases(client)).toEqual([]);
    expect((await client.get(`/download/${kits[1]!.id}`)).statusCode).toBe(403);
    expect(await lastActivity()).toMatchObject({ action: 'revoke kit', target: `customer ${user.id}` });
    expect((await owner.post(`/api/admin/customers/${user.id}/revoke`, { kit_id: kits[1]!.id })).statusCode).toBe(409);
    // One mail each, the refused calls none.
    expect((await mailsTo()).filter((m) => m.subject.includes(kits[1]!.title)).map((m) => m.subject)).toEqual([
      `${kits[1]!.title} is in your Kitshop library`,
      `${kits[1]!.title} was removed from your Kitshop library`,
    ]);
  });

  it('signs a customer out everywhere: every session ends at once, logged; the customer may sign in again', async () => {
    const { client: laptop, user } = await signedInClient(t.app, t.pool);
    const phone = await createClient(t.app);
    expect((await phone.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);
    const ended = await owner.post(`/api/admin/customers/${user.id}/sign-out`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ended: 2 });
    for (const device of [laptop, phone]) expect((await device.post('/api/purchases', {})).statusCode).toBe(401);
    expect((await owner.post('/api/purchases', {})).statusCode).toBe(200); // the owner's own session stays
    expect(await lastActivity()).toMatchObject({
      action: 'sign out customer',
      target: `customer ${user.id}`,
      detail: `2 sessions of ${user.email}`,
    });
    const again = await createClient(t.app);
    expect((await again.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);
    expect((await owner.post('/api/admin/customers/999999/sign-out')).statusCode).toBe(404);
  });

  it('never lets a grant take away a paid kit, nor a refund take away a granted one', async () => {
    const { client, user, orderId } = await paidBuyer([kits[0]!.id, kits[1]!.id]);
    // Paid, then granted and revoked: the paid line keeps it.
    await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: kits[0]!.id, note: '' });
    await owner.post(`/api/admin/customers/${user.id}/revoke`, { kit_id: kits[0]!.id, note: '' });
    expect(await purchases(client)).toEqual([kits[0]!.sef_id, kits[1]!.sef_id]);
    // The mail says so: the free access ended, the bought kit stays.
    const { rows: revokeMails } = await t.pool.query(
      'SELECT subject FROM mail_outbox WHERE "to" = $1 AND subject LIKE $2',
      [user.email, 'Your free access%'],
    );
    expect(revokeMails).toEqual([
      { subject: `Your free access to ${kits[0]!.title} ended; you keep the kit you bought` },
    ]);
    // Granted, then the paid line refunded: the grant keeps it, until it is revoked.
    await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: kits[1]!.id, note: 'keep it' });
    await owner.post(`/api/admin/orders/${orderId}/refund`, { kit_ids: [kits[1]!.id], reason: 'x' });
    expect(await purchases(client)).toEqual([kits[0]!.sef_id, kits[1]!.sef_id]);
    const { rows: refundMails } = await t.pool.query(
      'SELECT text FROM mail_outbox WHERE ref = $1 AND subject LIKE $2',
      [orderId, 'Refund of%'],
    );
    expect(refundMails[0].text).not.toContain('No longer in your library');
    expect(refundMails[0].text).toContain(`Still yours, as before: ${kits[0]!.title}, ${kits[1]!.title}.`);
    const detail = (await owner.get(`/api/admin/customers/${user.id}`)).json();
    expect(detail.kits.map((k: { kit_id: number; source: string }) => `${k.kit_id} ${k.source}`).sort()).toEqual(
      [`${kits[0]!.id} order`, `${kits[1]!.id} grant`].sort(),
    );
    await owner.post(`/api/admin/customers/${user.id}/revoke`, { kit_id: kits[1]!.id, note: '' });
    expect(await purchases(client)).toEqual([kits[0]!.sef_id]);
  });

  it('refuses a grant of an unknown kit or with bad input, changing nothing', async () => {
    const { user } = await signedInClient(t.app, t.pool);
    const before = await lastActivity();
    const unknown = await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: 99999 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toMatch(/kit_id/);
    expect((await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: -1 })).statusCode).toBe(422);
    expect((await owner.post(`/api/admin/customers/${user.id}/grant`, {})).statusCode).toBe(422);
    expect((await owner.post('/api/admin/customers/999999/grant', { kit_id: kits[0]!.id })).statusCode).toBe(404);
    expect((await owner.post('/api/admin/customers/999999/revoke', { kit_id: kits[0]!.id })).statusCode).toBe(404);
    expect((await owner.get(`/api/admin/customers/${user.id}`)).json().kits).toEqual([]);
    expect(await lastActivity()).toEqual(before);
  });
});

describe('kits', () => {
  it('lists every kit with sales figures, hides one off the store without touching owners, and shows it again', async () => {
    const { client } = await paidBuyer([kits[1]!.id]);
    const list = (await owner.get('/api/admin/kits')).json();
    const beta = list.find((k: { id: number }) => k.id === kits[1]!.id);
    expect(beta).toEqual({
      id: kits[1]!.id,
      sef_id: kits[1]!.sef_id,
      title: kits[1]!.title,
      price: kits[1]!.price_cents / 100,
      active: true,
      version: expect.any(String),
      released_on: expect.any(String),
      units: expect.any(Number),
      gross: expect.any(Number),
      downloads: expect.any(Number),
      owners: expect.any(Number),
    });
    expect(beta.units).toBeGreaterThanOrEqual(1);
    expect(beta.owners).toBeGreaterThanOrEqual(1);

    const hidden = await owner.post(`/api/admin/kits/${kits[1]!.id}`, { active: false });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ id: kits[1]!.id, active: false });
    const visitor = await createClient(t.app);
    expect((await visitor.post('/api/products', {})).json().map((k: { id: number }) => k.id)).not.toContain(
      kits[1]!.id,
    );
    expect((await visitor.get(`/product/${kits[1]!.sef_id}`)).statusCode).toBe(404);
    expect((await visitor.post('/api/cart', { products: [kits[1]!.id] })).json().items).toEqual([]);
    // Owners keep it.
    expect(await purchases(client)).toEqual([kits[1]!.sef_id]);
    expect((await client.get(`/download/${kits[1]!.id}`)).statusCode).toBe(200);
    // Still listed for the owner, hidden.
    expect((await owner.get('/api/admin/kits')).json().find((k: { id: number }) => k.id === kits[1]!.id).active).toBe(
      false,
    );
    expect(await lastActivity()).toMatchObject({ action: 'hide kit', target: `kit ${kits[1]!.id}` });

    const shown = await owner.post(`/api/admin/kits/${kits[1]!.id}`, { active: true });
    expect(shown.json().active).toBe(true);
    expect((await visitor.get(`/product/${kits[1]!.sef_id}`)).statusCode).toBe(200);
    expect((await owner.post('/api/admin/kits/99999', { active: true })).statusCode).toBe(404);
    expect((await owner.post(`/api/admin/kits/${kits[1]!.id}`, { active: 'no' })).statusCode).toBe(422);
    // A malformed id is looked at before the body.
    const both = await owner.post('/api/admin/kits/x1', { active: 'no' });
    expect([both.statusCode, both.json().message]).toEqual([404, 'No kit x1.']);
  });

  it('keeps a hidden kit hidden through a catalog re-import', async () => {
    await owner.post(`/api/admin/kits/${kits[0]!.id}`, { active: false });
    try {
      const storage = await openStorage(t.config);
      await importCatalog(t.db, storage, FIXTURE_CATALOG);
      t.catalog.invalidate();
      expect((await (await createClient(t.app)).get(`/product/${kits[0]!.sef_id}`)).statusCode).toBe(404);
      expect((await owner.get('/api/admin/kits')).json().find((k: { id: number }) => k.id === kits[0]!.id).active).toBe(
        false,
      );
    } finally {
      await owner.post(`/api/admin/kits/${kits[0]!.id}`, { active: true });
    }
  });

  it('refuses to pay a pending order whose kit was hidden meanwhile', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    const cart = (await client.post('/api/cart', { products: [kits[0]!.id], checkout: true })).json();
    await owner.post(`/api/admin/kits/${kits[0]!.id}`, { active: false });
    try {
      const paid = await sandboxPay(client, cart.order_id);
      expect(paid.statusCode).toBe(409);
      expect(paid.json().message).toMatch(/no longer for sale/);
      expect((await client.post('/api/cart', { products: [kits[0]!.id], checkout: true })).json().order_id).toBeNull();
    } finally {
      await owner.post(`/api/admin/kits/${kits[0]!.id}`, { active: true });
    }
  });
});

describe('messages and subscribers', () => {
  it('lists contact messages by status and replies through the outbox with Reply-To the support address', async () => {
    const visitor = await createClient(t.app);
    const sent = await visitor.post('/api/contact', {
      name: 'Mary Jackson',
      email: 'mary@example.com',
      message: 'Does the kit include tests?',
      topic: 'Bug report',
    });
    expect(sent.statusCode).toBe(200);
    const fresh = (await owner.get('/api/admin/messages?status=new')).json().items;
    const message = fresh.find((m: { email: string }) => m.email === 'mary@example.com');
    expect(message).toEqual({
      id: expect.any(Number),
      created_at: expect.any(String),
      topic: 'Bug report',
      name: 'Mary Jackson',
      email: 'mary@example.com',
      message: 'Does the kit include tests?',
      status: 'new',
    });
    const replied = await owner.post(`/api/admin/messages/${message.id}/reply`, { body: 'Yes, it does.' });
    expect(replied.statusCode).toBe(200);
    expect(replied.json()).toMatchObject({ id: message.id, status: 'answered' });
    expect(
      (await owner.get('/api/admin/messages?status=new')).json().items.map((m: { id: number }) => m.id),
    ).not.toContain(message.id);
    expect((await owner.get('/api/admin/messages?status=answered')).json().items[0].id).toBe(message.id);
    t.mails.length = 0;
    await t.deliverMail();
    const mail = t.mails.find((m) => m.to === 'mary@example.com');
    expect(mail?.subject).toBe('Re: Bug report');
    expect(mail?.text).toContain('Yes, it does.');
    expect(mail?.headers?.['Reply-To']).toBe(t.config.supportEmail);
    expect(await lastActivity()).toMatchObject({ action: 'reply', target: `message ${message.id}` });

    expect((await owner.get('/api/admin/messages?status=spam')).statusCode).toBe(422);
    expect((await owner.post('/api/admin/messages/99999/reply', { body: 'x' })).statusCode).toBe(404);
    expect((await owner.post(`/api/admin/messages/${message.id}/reply`, { body: '  ' })).statusCode).toBe(422);
  });

  it('counts and pages subscribers (newest first) and exports them as CSV safe for spreadsheets', async () => {
    for (const email of ['first@example.com', '=cmd@example.com', 'third@example.com'])
      await t.pool.query("INSERT INTO subscribers (email, token_hash) VALUES ($1, md5($1 || 'x'))", [email]);
    await t.pool.query(
      "INSERT INTO subscribers (email, token_hash, unsubscribed_at) VALUES ('gone@example.com', 'g', now())",
    );
    const page = (await owner.get('/api/admin/subscribers?limit=2')).json();
    expect(page.total).toBe(3);
    expect(page.items).toEqual([
      { email: 'third@example.com', subscribed_at: expect.any(String) },
      { email: '=cmd@example.com', subscribed_at: expect.any(String) },
    ]);
    const rest = (await owner.get(`/api/admin/subscribers?limit=2&cursor=${page.next_cursor}`)).json();
    expect(rest.items.map((s: { email: string }) => s.email)).toEqual(['first@example.com']);
    expect(rest.next_cursor).toBeNull();

    const csv = await owner.get('/api/admin/subscribers.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('email,subscribed_at');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([
      'first@example.com',
      "'=cmd@example.com",
      'third@example.com',
    ]);
  });

  it('keeps subscribers.csv only while it is current: every change, also through another instance, shows next time', async () => {
    const emailsIn = (body: string) =>
      body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[0]);
    const download = async () => emailsIn((await owner.get('/api/admin/subscribers.csv')).body);
    // Another instance on the same database, with its own kept copy.
    const otherInstance = subscribersCsvFile(t.db);
    const before = await download();
    expect(emailsIn(await otherInstance())).toEqual(before);

    await t.pool.query("INSERT INTO subscribers (email, token_hash) VALUES ('late@example.com', 'late')");
    expect(await download()).toEqual([...before, 'late@example.com']);
    expect(emailsIn(await otherInstance())).toEqual([...before, 'late@example.com']);

    await t.pool.query("UPDATE subscribers SET unsubscribed_at = now() WHERE email = 'late@example.com'");
    const [mine, theirs, again] = await Promise.all([download(), otherInstance(), download()]);
    expect(mine).toEqual(before);
    expect(emailsIn(theirs)).toEqual(before);
    expect(again).toEqual(before);
    await t.pool.query('DELETE FROM subscribers WHERE email = $1', [before[0]!.replace(/^'/, '')]);
    expect(await download()).toEqual(before.slice(1));
  });

  it('neutralises formulas and quotes separators in CSV cells', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+x')).toBe("'+x");
    expect(csvCell('-x')).toBe("'-x");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('plain@example.com')).toBe('plain@example.com');
  });
});

describe('summary and activity', () => {
  it('sums sales, refunds, orders, new customers and checkouts of a range, by day, with top kits', async () => {
    const res = await owner.get('/api/admin/summary');
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s.by_day).toHaveLength(30);
    expect(s).toMatchObject({
      gross: expect.any(Number),
      refunds: expect.any(Number),
      orders: expect.any(Number),
      customers: expect.any(Number),
      checkouts: expect.any(Number),
    });
    expect(s.net).toBeCloseTo(s.gross - s.refunds, 2);
    expect(s.orders).toBeGreaterThan(0);
    expect(s.conversion).toBeCloseTo(s.orders / s.checkouts, 3);
    // New customers: the accounts made in the 30 UTC days, as counting them says.
    const { rows: made } = await t.pool.query(
      `SELECT count(*)::int AS n FROM users
        WHERE created_at >= ((now() AT TIME ZONE 'UTC')::date - 29)::timestamp AT TIME ZONE 'UTC'`,
    );
    expect(made[0].n).toBeGreaterThan(0);
    expect(s.customers).toBe(made[0].n);
    const todayRow = s.by_day[s.by_day.length - 1];
    expect(todayRow.date).toBe(new Date().toISOString().slice(0, 10));
    expect(todayRow.orders).toBe(s.orders);
    expect(s.top_kits[0]).toEqual({
      id: expect.any(Number),
      sef_id: expect.any(String),
      title: expect.any(String),
      units: expect.any(Number),
      gross: expect.any(Number),
    });
    const day = await owner.get('/api/admin/summary?from=2024-01-01&to=2024-01-01');
    expect(day.json()).toMatchObject({
      gross: 0,
      orders: 0,
      by_day: [{ date: '2024-01-01', gross: 0, refunds: 0, orders: 0 }],
    });
  });

  it('keeps whole past days in sales_days and still counts them right', async () => {
    const { rows } = await t.pool.query("SELECT id FROM orders WHERE status = 'paid' ORDER BY id LIMIT 1");
    await t.pool.query(
      "UPDATE orders SET paid_at = '2025-03-04T12:00:00Z', created_at = '2025-03-04T11:00:00Z' WHERE id = $1",
      [rows[0].id],
    );
    const first = (await owner.get('/api/admin/summary?from=2025-03-01&to=2025-03-31')).json();
    expect(first.orders).toBe(1);
    expect(first.by_day.find((d: { date: string }) => d.date === '2025-03-04').orders).toBe(1);
    const stored = await t.pool.query(
      "SELECT count(*)::int AS n FROM sales_days WHERE day BETWEEN '2025-03-01' AND '2025-03-31'",
    );
    expect(stored.rows[0].n).toBe(31);
    expect((await owner.get('/api/admin/summary?from=2025-03-01&to=2025-03-31')).json()).toEqual(first);
  });

  it.each(['from=2025-02-30', 'from=yesterday', 'from=2025-03-02&to=2025-03-01', 'from=2000-01-01&to=2025-01-01'])(
    'answers a bad range (%s) with 422',
    async (query) => {
      const res = await owner.get(`/api/admin/summary?${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBeTruthy();
    },
  );

  it('lists activity newest first by cursor, and the log cannot be changed', async () => {
    const page = (await owner.get('/api/admin/activity?limit=2')).json();
    expect(page.items).toHaveLength(2);
    expect(page.items[0].at >= page.items[1].at).toBe(true);
    const next = (await owner.get(`/api/admin/activity?limit=2&cursor=${page.next_cursor}`)).json();
    expect(next.items[0]).not.toEqual(page.items[0]);
    await expect(t.pool.query("UPDATE owner_activity SET detail = 'x'")).rejects.toThrow(/never changed/);
    await expect(t.pool.query('DELETE FROM owner_activity')).rejects.toThrow(/never changed/);
  });
});
