import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../../tests/setup/log.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { createMetrics } from './metrics.ts';
import { createLogger } from './server.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
const log = captureLog();

beforeAll(async () => {
  t = await createTestApp(
    { METRICS_TOKEN: TOKEN, TRUST_PROXY: '127.0.0.1' },
    { logger: createLogger({ logLevel: 'info' }, log.stream) },
  );
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};

/** The value of one series (name and labels as printed), or 0 when it is not there yet. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('GET /metrics', () => {
  it('answers 401 without the token or with a wrong one, and 404 when METRICS_TOKEN is unset', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String) });
      expect(res.body).not.toContain('kitshop_');
    }
    const off = await createTestApp();
    try {
      expect(
        (await off.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
      ).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('moves the request, payment, catalog, outbox and pool series as the shop is used', async () => {
    const before = await scrape();
    const products =
      'kitshop_http_request_duration_seconds_count{method="POST",route="/api/products",status_code="200"}';
    const rejected = 'kitshop_payment_events_total{outcome="rejected"}';
    const hits = 'kitshop_catalog_cache_lookups_total{result="hit"}';
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'POST', url: '/api/products' })).statusCode).toBe(200);
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/paddle',
      headers: { 'content-type': 'application/json', 'paddle-signature': 'ts=1;h1=00' },
      payload: '{}',
    });
    expect(webhook.statusCode).toBe(400);
    await t.pool.query(
      `INSERT INTO mail_outbox ("to", subject, text, html, created_at) VALUES ('a@b.test', 's', 't', 'h', now() - interval '90 seconds')`,
    );
    const after = await scrape();
    expect(value(after, products) - value(before, products)).toBe(3);
    expect(value(after, rejected) - value(before, rejected)).toBe(1);
    expect(value(after, hits)).toBeGreaterThan(value(before, hits));
    // A kept page sent at once reads the catalog in memory too: a hit.
    await t.app.inject({ url: '/' });
    const kept = await scrape();
    await t.app.inject({ url: '/' });
    expect(value(await scrape(), hits)).toBeGreaterThan(value(kept, hits));
    expect(value(after, 'kitshop_outbox_depth')).toBe(value(before, 'kitshop_outbox_depth') + 1);
    expect(value(after, 'kitshop_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(90);
    expect(value(after, 'kitshop_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(after).toContain('process_cpu_user_seconds_total');
    expect(after).toContain('nodejs_eventloop_lag_seconds');
    // Routes are labelled by their pattern: a product's own URL is not a series of its own.
    await t.app.inject({ url: '/product/not-a-kit-abc' });
    expect(await scrape()).not.toContain('not-a-kit-abc');
  });
});

describe('job metrics', () => {
  it("counts each job runner's jobs by queue and outcome", async () => {
    const metrics = createMetrics({
      db: t.db,
      pool: t.pool,
      catalogLookups: () => ({ hits: 0, misses: 0 }),
      jobCounts: () => ({
        mail: { completed: 3, retried: 1, failed: 0 },
        github: { completed: 1, retried: 0, failed: 2 },
      }),
    });
    const text = await metrics.registry.metrics();
    expect(value(text, 'kitshop_jobs_total{queue="mail",outcome="completed"}')).toBe(3);
    expect(value(text, 'kitshop_jobs_total{queue="mail",outcome="retried"}')).toBe(1);
    expect(value(text, 'kitshop_jobs_total{queue="github",outcome="failed"}')).toBe(2);
  });
});

describe('request ids', () => {
  it('sends each answer its id, and every log line of the request carries it', async () => {
    const one = await t.app.inject({ url: '/api/products' });
    const two = await t.app.inject({ url: '/api/products' });
    const id = one.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(two.headers['x-request-id']).not.toBe(id);
    const lines = log.lines().filter((l) => l.reqId === id);
    expect(lines.map((l) => l.msg)).toEqual(['request completed']);
  });

  it("keeps the trusted proxy's id, and makes its own for a forged or unsafe one", async () => {
    const passed = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'f00dcafe0123456789abcdef' } });
    expect(passed.headers['x-request-id']).toBe('f00dcafe0123456789abcdef');
    const unsafe = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'x\n{"level":60}' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const untrusted = await createTestApp();
    try {
      const res = await untrusted.app.inject({
        url: '/healthz',
        headers: { 'x-request-id': 'f00dcafe0123456789abcdef' },
      });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await untrusted.close();
    }
  });
});
