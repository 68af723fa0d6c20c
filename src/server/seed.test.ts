import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInClient } from '../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { parseSeedArgs, seedDemoSales } from './seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ OWNER_EMAILS: 'owner@shop.test' });
});
afterAll(() => t.close());

it('reads --customers and --orders, and refuses anything else', () => {
  expect(parseSeedArgs(['--customers', '10', '--orders', '20'])).toEqual({ customers: 10, orders: 20 });
  expect(parseSeedArgs([])).toEqual({ customers: 50_000, orders: 100_000 });
  // As the README writes them: either option alone, and --name=value.
  expect(parseSeedArgs(['--orders', '500'])).toEqual({ customers: 50_000, orders: 500 });
  expect(parseSeedArgs(['--customers=30', '--orders=40'])).toEqual({ customers: 30, orders: 40 });
  expect(parseSeedArgs(['--customers'])).toMatch(/bad option/);
  expect(parseSeedArgs(['--orders', '-1'])).toMatch(/bad option/);
  expect(parseSeedArgs(['--users', '5'])).toMatch(/bad option/);
});

it('seeds customers and 18 months of consistent sales the console can read', async () => {
  await seedDemoSales(t.pool, { customers: 400, orders: 1_000 });
  const q = async (text: string) => (await t.pool.query(text)).rows[0];
  expect((await q('SELECT count(*)::int AS n FROM users')).n).toBe(400);
  expect((await q('SELECT count(*)::int AS n FROM orders')).n).toBe(1_000);
  // Each order is by a customer who existed by then, totals match lines, paid lines own their kits.
  expect(
    (
      await q(
        'SELECT count(*)::int AS n FROM orders o JOIN users u ON u.id = o.user_id WHERE o.created_at < u.created_at',
      )
    ).n,
  ).toBe(0);
  expect(
    (
      await q(`SELECT count(*)::int AS n FROM orders o
               WHERE total_cents <> (SELECT sum(price_cents) FROM order_items i WHERE i.order_id = o.id)`)
    ).n,
  ).toBe(0);
  const span = await q('SELECT extract(day FROM max(created_at) - min(created_at))::int AS days FROM orders');
  expect(span.days).toBeGreaterThan(450);
  const statuses = await q(`SELECT count(*) FILTER (WHERE status = 'refunded')::int AS refunded,
      count(*) FILTER (WHERE status = 'partially_refunded')::int AS partial, count(*) FILTER (WHERE status = 'pending')::int AS pending
      FROM orders`);
  expect(statuses.refunded).toBeGreaterThan(0);
  expect(statuses.pending).toBeGreaterThan(0);
  expect(
    (
      await q(`SELECT count(*)::int AS n FROM orders o JOIN order_items i ON i.order_id = o.id
               WHERE o.status = 'paid' AND NOT EXISTS (SELECT 1 FROM entitlements e WHERE e.user_id = o.user_id AND e.kit_id = i.kit_id AND e.revoked_at IS NULL)`)
    ).n,
  ).toBe(0);

  const { client: owner } = await signedInClient(t.app, t.pool, { email: 'owner@shop.test' });
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const year = (await owner.get(`/api/admin/summary?from=${from}&to=${to}`)).json();
  expect(year.by_day).toHaveLength(365);
  expect(year.orders).toBeGreaterThan(500);
  expect(year.refunds).toBeGreaterThan(0);
  const live = await q(
    `SELECT count(*)::int AS n FROM orders WHERE paid_at >= '${from}'::date::timestamp AT TIME ZONE 'UTC'`,
  );
  expect(year.orders).toBe(live.n);
  const again = await seedDemoSales(t.pool, { customers: 400, orders: 10 });
  expect(again.customers).toBe(0);
  expect((await q('SELECT count(*)::int AS n FROM orders')).n).toBe(1_010);
});
