import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { today } from '../../lib/days.ts';
import { accountsByIds } from '../accounts/accounts.owner.service.ts';
import { EXPORT_COLUMNS, ordersCsv } from '../orders/orders.export.service.ts';

let t: TestApp;
let owner: Client;
let kits: { id: number; title: string; price_cents: number }[];

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'owner@shop.test' });
  kits = (await t.pool.query('SELECT id, title, price_cents FROM kits ORDER BY position')).rows;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'owner@shop.test' }));
});
afterAll(() => t.close());

async function paidBuyer(kitIds: number[], overrides: { email?: string } = {}) {
  const { client, user } = await signedInClient(t.app, t.pool, overrides);
  const cart = (await client.post('/api/cart', { products: kitIds, checkout: true })).json();
  expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
  return { client, user, orderId: cart.order_id as string };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** Splits the CSV the way a spreadsheet reads it (quoted cells may hold commas). */
const parse = (csv: string) =>
  csv
    .trimEnd()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1]!).slice(0, EXPORT_COLUMNS.length),
    );

describe('the accounting export', () => {
  it('streams one row per order and per refund for a range, with business details, neutralised formulas', async () => {
    const first = await paidBuyer([kits[0]!.id, kits[1]!.id], { email: 'first@buyer.test' });
    const saved = await first.client.post(`/api/orders/${first.orderId}/business`, {
      company_name: '=cmd|calc, Ltd',
      vat_id: 'FR12345678901',
      country: 'FR',
    });
    expect(saved.statusCode).toBe(200);
    const second = await paidBuyer([kits[0]!.id], { email: 'second@buyer.test' });
    const refund = await owner.post(`/api/admin/orders/${first.orderId}/refund`, {
      kit_ids: [kits[1]!.id],
      reason: 'Twice',
    });
    expect(refund.statusCode).toBe(200);

    const day = today();
    const res = await owner.get(`/api/admin/orders.csv?from=${day}&to=${day}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="orders-${day}-to-${day}.csv"`);
    const [header, ...rows] = parse(res.body);
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(rows.map((r) => [r[1], r[2], r[13]])).toEqual([
      [first.orderId, 'first@buyer.test', 'partially_refunded'],
      [second.orderId, 'second@buyer.test', 'paid'],
      [first.orderId, 'first@buyer.test', 'refund'],
    ]);
    const total = kits[0]!.price_cents + kits[1]!.price_cents;
    expect(rows[0]).toEqual([
      expect.stringMatching(new RegExp(`^${day}T\\d{2}:\\d{2}:\\d{2}Z$`)),
      first.orderId,
      'first@buyer.test',
      'FR',
      `"'=cmd|calc, Ltd"`,
      'FR12345678901',
      `${kits[0]!.title}; ${kits[1]!.title}`,
      dollars(total),
      '0.00',
      '0.00',
      dollars(total),
      'USD',
      expect.stringMatching(/^txn_/),
      'partially_refunded',
    ]);
    expect(rows[2]!.slice(6, 11)).toEqual([
      kits[1]!.title,
      `-${dollars(kits[1]!.price_cents)}`,
      '0.00',
      '0.00',
      `-${dollars(kits[1]!.price_cents)}`,
    ]);

    // Another range holds none of them; bad ranges are refused.
    const empty = await owner.get('/api/admin/orders.csv?from=2020-01-01&to=2020-01-31');
    expect(empty.body).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`);
    expect((await owner.get(`/api/admin/orders.csv?from=${day}&to=2020-01-01`)).statusCode).toBe(422);
    expect((await owner.get('/api/admin/orders.csv?from=yesterday&to=today')).statusCode).toBe(422);
    expect((await owner.get('/api/admin/orders.csv')).statusCode).toBe(422);
    const { client: customer } = await signedInClient(t.app, t.pool);
    expect((await customer.get(`/api/admin/orders.csv?from=${day}&to=${day}`)).statusCode).toBe(403);
    expect((await (await createClient(t.app)).get(`/api/admin/orders.csv?from=${day}&to=${day}`)).statusCode).toBe(401);
  });

  it('reads page by page and writes the same rows whatever the page size (a refund across pages stays one row)', async () => {
    const both = await paidBuyer([kits[0]!.id, kits[1]!.id]);
    expect((await owner.post(`/api/admin/orders/${both.orderId}/refund`, { reason: 'All' })).statusCode).toBe(200);
    const day = today();
    const read = async (pageRows?: number) => {
      const chunks: string[] = [];
      for await (const chunk of ordersCsv(t.db, (ids) => accountsByIds(t.db, ids), day, '2999-01-01', pageRows))
        chunks.push(chunk);
      return { text: chunks.join(''), chunks: chunks.length };
    };
    const whole = await read();
    const paged = await read(1);
    expect(paged.text).toBe(whole.text);
    expect(paged.chunks).toBeGreaterThan(whole.chunks);
    const refundRows = parse(whole.text).filter((r) => r[1] === both.orderId && r[13] === 'refund');
    expect(refundRows).toHaveLength(1);
    expect(refundRows[0]![6]).toBe(`${kits[0]!.title}; ${kits[1]!.title}`);
  });
});
