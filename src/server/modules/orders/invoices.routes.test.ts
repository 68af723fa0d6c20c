import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { documentNumber, issueDocument } from './invoices.service.ts';

let t: TestApp;
let owner: Client;
let kits: { id: number; sef_id: string; title: string; price_cents: number }[];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-invoice-'));

beforeAll(async () => {
  t = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    OWNER_EMAILS: 'owner@shop.test',
    SELLER_NAME: 'Starter Kits Ltd',
    SELLER_ADDRESS: '1 Market Street; Dublin D01 X2Y3; Ireland',
    SELLER_TAX_ID: 'IE1234567WA',
  });
  kits = (await t.pool.query('SELECT id, sef_id, title, price_cents FROM kits ORDER BY position')).rows;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'owner@shop.test' }));
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A buyer who paid for these kits through the sandbox. */
async function paidBuyer(kitIds: number[], overrides: { name?: string } = {}) {
  const { client, user } = await signedInClient(t.app, t.pool, overrides);
  const cart = (await client.post('/api/cart', { products: kitIds, checkout: true })).json();
  expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
  return { client, user, orderId: cart.order_id as string };
}

/** The text of a PDF as poppler's pdftotext reads it. */
function pdfText(body: Buffer): string {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, body);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const usd = (cents: number) => `USD ${(cents / 100).toFixed(2)}`;

describe('the buyer’s orders', () => {
  it('lists paid and refunded orders newest first with kits, total and documents; refuses signed-out callers', async () => {
    const { client, orderId: first } = await paidBuyer([kits[0]!.id]);
    const second = (await client.post('/api/cart', { products: [kits[1]!.id], checkout: true })).json().order_id;
    expect((await sandboxPay(client, second)).statusCode).toBe(200);
    // A checkout left unpaid is no order to invoice.
    await client.post('/api/cart', { products: [kits[1]!.id], checkout: true });
    const res = await client.get('/api/orders');
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items.map((o: { order_id: string }) => o.order_id)).toEqual([second, first]);
    expect(items[1]).toMatchObject({
      status: 'paid',
      currency: 'USD',
      total: kits[0]!.price_cents / 100,
      kits: [{ id: kits[0]!.id, title: kits[0]!.title, price: kits[0]!.price_cents / 100 }],
      business: null,
      can_add_business: true,
      invoice_url: `/api/orders/${first}/invoice`,
      credit_notes: [],
    });
    const anonymous = await createClient(t.app);
    expect((await anonymous.get('/api/orders')).statusCode).toBe(401);
    expect((await anonymous.get(`/api/orders/${first}/invoice`)).statusCode).toBe(401);
  });

  it('renders a sandbox invoice PDF with seller, buyer, lines, tax and total, numbered once', async () => {
    const { client, orderId } = await paidBuyer([kits[0]!.id, kits[1]!.id], { name: 'Grace Hopper' });
    const res = await client.get(`/api/orders/${orderId}/invoice`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    const number = /filename="invoice-(INV-\d{6})\.pdf"/.exec(String(res.headers['content-disposition']))?.[1];
    expect(number).toBeDefined();
    const text = pdfText(res.rawPayload);
    for (const expected of [
      'Invoice',
      number!,
      'Starter Kits Ltd',
      '1 Market Street',
      'Tax ID: IE1234567WA',
      'Grace Hopper',
      kits[0]!.title,
      kits[1]!.title,
      'Tax (0%)',
      usd(kits[0]!.price_cents + kits[1]!.price_cents),
      'Test payment: no charge',
      orderId,
    ])
      expect(text).toContain(expected);
    // The same number every time.
    const again = await client.get(`/api/orders/${orderId}/invoice`);
    expect(String(again.headers['content-disposition'])).toContain(number);
  });

  it('lets only the buyer and an owner fetch an invoice', async () => {
    const { orderId } = await paidBuyer([kits[0]!.id]);
    const { client: stranger } = await signedInClient(t.app, t.pool);
    expect((await stranger.get(`/api/orders/${orderId}/invoice`)).statusCode).toBe(404);
    expect((await stranger.get('/api/orders/ord_nope/invoice')).statusCode).toBe(404);
    const byOwner = await owner.get(`/api/admin/orders/${orderId}/invoice`);
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.headers['content-type']).toBe('application/pdf');
    expect((await stranger.get(`/api/admin/orders/${orderId}/invoice`)).statusCode).toBe(403);
  });

  it('adds business details once after paying, and the invoice shows them', async () => {
    const { client, orderId } = await paidBuyer([kits[0]!.id], { name: 'Ada Lovelace' });
    const bad = await client.post(`/api/orders/${orderId}/business`, {
      company_name: 'Analytical Engines GmbH',
      vat_id: 'DE12345',
      country: 'DE',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('vat_id: This is not a valid DE VAT ID: it should look like DE123456789.');
    const noCountry = await client.post(`/api/orders/${orderId}/business`, { company_name: 'X' });
    expect(noCountry.statusCode).toBe(422);
    expect(noCountry.json().message).toMatch(/^country: /);
    expect((await client.get('/api/orders')).json().items[0].business).toBeNull();

    const added = await client.post(`/api/orders/${orderId}/business`, {
      company_name: 'Analytical Engines GmbH',
      vat_id: 'de 123 456 789',
      country: 'DE',
      address_line: 'Unter den Linden 1',
      city: 'Berlin',
      postal_code: '10117',
    });
    expect(added.statusCode).toBe(200);
    const order = (await client.get('/api/orders')).json().items[0];
    expect(order.business).toMatchObject({ company_name: 'Analytical Engines GmbH', vat_id: 'DE123456789' });
    expect(order.can_add_business).toBe(false);
    const twice = await client.post(`/api/orders/${orderId}/business`, { company_name: 'Other', country: 'DE' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/added once/);
    const text = pdfText((await client.get(`/api/orders/${orderId}/invoice`)).rawPayload);
    for (const expected of [
      'Analytical Engines GmbH',
      'VAT ID: DE123456789',
      'Unter den Linden 1',
      'Germany',
      'Ada Lovelace',
    ])
      expect(text).toContain(expected);
    const { client: stranger } = await signedInClient(t.app, t.pool);
    expect(
      (await stranger.post(`/api/orders/${orderId}/business`, { company_name: 'X', country: 'DE' })).statusCode,
    ).toBe(404);
  });

  it('keeps business details given at checkout on the order', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    const cart = (await client.post('/api/cart', { products: [kits[1]!.id], checkout: true })).json();
    const saved = await client.post(`/api/orders/${cart.order_id}/business`, {
      company_name: 'Hopper & Co',
      vat_id: 'GB123456789',
      country: 'gb',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().after_payment).toBe(false);
    expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
    const order = (await client.get('/api/orders')).json().items[0];
    expect(order.business).toMatchObject({ company_name: 'Hopper & Co', vat_id: 'GB123456789', country: 'GB' });
    expect(order.can_add_business).toBe(false);
    // Paid, the details stay: they are on its invoice.
    expect((await client.post(`/api/orders/${cart.order_id}/business/clear`)).statusCode).toBe(409);
  });

  it('takes details off an order still at checkout when the buyer turns the switch off', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    const cart = (await client.post('/api/cart', { products: [kits[0]!.id], checkout: true })).json();
    const body = { company_name: 'Short-lived Ltd', country: 'US' };
    expect((await client.post(`/api/orders/${cart.order_id}/business`, body)).statusCode).toBe(200);
    const { client: stranger } = await signedInClient(t.app, t.pool);
    expect((await stranger.post(`/api/orders/${cart.order_id}/business/clear`)).statusCode).toBe(404);
    expect((await client.post(`/api/orders/${cart.order_id}/business/clear`)).statusCode).toBe(200);
    expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
    const order = (await client.get('/api/orders')).json().items[0];
    expect(order).toMatchObject({ business: null, can_add_business: true });
  });

  it('issues a credit note with its own number for a refund', async () => {
    const { client, orderId } = await paidBuyer([kits[0]!.id, kits[1]!.id]);
    const invoiceName = String((await client.get(`/api/orders/${orderId}/invoice`)).headers['content-disposition']);
    const refund = await owner.post(`/api/admin/orders/${orderId}/refund`, { kit_ids: [kits[1]!.id], reason: 'Twice' });
    expect(refund.statusCode).toBe(200);
    const order = (await client.get('/api/orders')).json().items[0];
    expect(order.status).toBe('partially_refunded');
    expect(order.credit_notes).toEqual([
      { url: expect.stringMatching(/\/credit-notes\//), date: expect.any(String), amount: kits[1]!.price_cents / 100 },
    ]);
    const note = await client.get(order.credit_notes[0].url);
    expect(note.statusCode).toBe(200);
    const number = /filename="credit-note-(CN-\d{6})\.pdf"/.exec(String(note.headers['content-disposition']))?.[1];
    expect(number).toBeDefined();
    const text = pdfText(note.rawPayload);
    expect(text).toContain('Credit note');
    expect(text).toContain(kits[1]!.title);
    expect(text).toContain(usd(kits[1]!.price_cents));
    expect(text).toContain(/INV-\d{6}/.exec(invoiceName)![0]);
    expect((await client.get(`/api/orders/${orderId}/credit-notes/adj_nope`)).statusCode).toBe(404);
  });
});

describe('document numbers', () => {
  it('runs without gaps per series and never gives one number twice, even when asked at once', async () => {
    const ids = (await t.pool.query("SELECT id FROM orders WHERE status <> 'pending' ORDER BY id LIMIT 3")).rows.map(
      (r) => r.id as number,
    );
    const issued = await Promise.all([...ids, ...ids].map((id) => issueDocument(t.db, id, 'invoice')));
    expect(issued.slice(0, 3).map((i) => i.number)).toEqual(issued.slice(3).map((i) => i.number));
    const { rows } = await t.pool.query("SELECT number FROM order_documents WHERE series = 'invoice' ORDER BY number");
    const numbers = rows.map((r) => r.number as number);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(documentNumber('invoice', 7)).toBe('INV-000007');
    expect(documentNumber('credit_note', 12)).toBe('CN-000012');
  });
});
