import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../../../tests/setup/log.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createLogger } from '../server.ts';
import { hashSessionToken } from './session.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const PAGE = '/product/alpha-kit';
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request over a real connection: `app.inject` never reaches the server's request event. */
function request(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const html = (answer: Answer) =>
  (answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body).toString();
const initialData = (page: string) =>
  JSON.parse(/<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(page)![1]!);
/** The headers that differ between any two answers (the request's id, the date, the visitor's own cookie). */
const sameFor = (headers: http.IncomingHttpHeaders) => {
  const { 'x-request-id': _id, date: _date, 'set-cookie': _cookie, 'content-length': _length, ...rest } = headers;
  return rest;
};
const cookieAttributes = (headers: http.IncomingHttpHeaders) => headers['set-cookie']?.[0]?.replace(/=[^;]*/, '=…');

/**
 * A shop with a stand-in renderer, listening on a port (the direct answers live on the server's
 * request event); `throughFastify` collects the URLs that reached Fastify's first hook.
 */
async function listeningShop(
  env: Record<string, string>,
  options: { log?: ReturnType<typeof captureLog>; throughFastify?: string[] } = {},
): Promise<{ t: TestApp; base: string }> {
  const { log, throughFastify } = options;
  const t = await createTestApp(env, {
    render: async ({ url }) => `<main>rendered ${url}</main>`,
    ...(log ? { logger: createLogger({ logLevel: 'info' }, log.stream) } : {}),
    ...(throughFastify
      ? {
          routes: (app) =>
            app.addHook('onRequest', (req, _reply, done) => {
              throughFastify.push(req.url);
              done();
            }),
        }
      : {}),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

describe('kept pages answered before Fastify (issue 12)', () => {
  let t: TestApp;
  let base: string;
  /** The URLs that went through Fastify's pipeline (its first hook). */
  const throughFastify: string[] = [];
  const log = captureLog();

  beforeAll(async () => {
    ({ t, base } = await listeningShop(
      { PUBLIC_URL: 'http://shop.test', METRICS_TOKEN: TOKEN },
      { log, throughFastify },
    ));
  });
  afterAll(() => t.close());

  it("answers a kept page to a visitor without a session itself, with all that Fastify's answer has", async () => {
    // The first visit renders and keeps the page, through Fastify.
    const first = await request(base, PAGE, BROWSER);
    expect(throughFastify).toEqual([PAGE]);
    const second = await request(base, PAGE, BROWSER);
    expect(throughFastify).toEqual([PAGE]);

    expect(second.status).toBe(200);
    expect(sameFor(second.headers)).toEqual(sameFor(first.headers));
    expect(second.headers['content-encoding']).toBe('gzip');
    expect(second.headers['content-security-policy']).toContain("default-src 'self'");
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(Number(second.headers['content-length'])).toBe(second.body.length);
    // A first visit gets its own CSRF secret, in a cookie like the one Fastify's answer sets.
    expect(cookieAttributes(second.headers)).toBe(cookieAttributes(first.headers));
    expect(second.headers['set-cookie']).not.toEqual(first.headers['set-cookie']);
    // The same page (gunzip checks the spliced stream's checksum), with this visitor's own data.
    const [one, two] = [html(first), html(second)];
    expect(two).toContain('<main>rendered /product/alpha-kit</main>');
    expect(initialData(two)).toEqual({ ...initialData(one), csrf: initialData(two).csrf });
    expect(initialData(two)).toMatchObject({ path: PAGE, user: {} });
    expect(two).toBe(one.replace(initialData(one).csrf, initialData(two).csrf));
    // Its log line carries the request id, as Fastify's do.
    const line = log.lines().find((l) => l.reqId === second.headers['x-request-id']);
    expect(line).toMatchObject({ msg: 'request completed', res: { statusCode: 200 } });
    // The request as Fastify's own lines describe it (each request has its own connection here).
    const fastify = log.lines().find((l) => l.reqId === first.headers['x-request-id'] && l.msg === 'incoming request');
    expect(line!.req).toEqual({ ...(fastify!.req as object), remotePort: expect.any(Number) });
    expect(line!.req).toMatchObject({ method: 'GET', url: PAGE, remoteAddress: '127.0.0.1' });
  });

  it("keeps a returning visitor's CSRF secret, and its token passes the CSRF check", async () => {
    const fresh = await request(base, PAGE, BROWSER);
    const cookie = fresh.headers['set-cookie']![0]!.split(';')[0]!;
    const again = await request(base, PAGE, { ...BROWSER, cookie });
    expect(again.headers['set-cookie']).toBeUndefined();
    const { csrf } = initialData(html(again));
    const exit = await request(base, '/api/exit', { cookie, 'x-csrf-token': csrf });
    expect(exit.status).toBe(200);
    expect(JSON.parse(exit.body.toString())).toEqual({ ok: true });
    const forged = await request(base, '/api/exit', { cookie, 'x-csrf-token': `${csrf}x` });
    expect(forged.status).toBe(419); // the shop's answer to a bad CSRF token
  });

  it('answers a kept page as it is to a client that names no encoding, as Fastify would', async () => {
    await request(base, PAGE, BROWSER); // kept
    throughFastify.length = 0;
    // Fastify's answer to a client that takes no compression but names one: the page as it is.
    const fastify = await request(base, PAGE, { 'accept-encoding': 'identity' });
    expect(throughFastify).toEqual([PAGE]);
    const direct = await request(base, PAGE);
    expect(throughFastify).toEqual([PAGE]);

    expect(direct.status).toBe(200);
    expect(direct.headers['content-encoding']).toBeUndefined();
    expect(sameFor(direct.headers)).toEqual(sameFor(fastify.headers));
    expect(Number(direct.headers['content-length'])).toBe(direct.body.length);
    expect(cookieAttributes(direct.headers)).toBe(cookieAttributes(fastify.headers));
    const [one, two] = [direct.body.toString(), fastify.body.toString()];
    expect(one).toContain('<main>rendered /product/alpha-kit</main>');
    expect(one).toBe(two.replace(initialData(two).csrf, initialData(one).csrf));
    // Its token belongs to the secret in its cookie: the CSRF check passes with both.
    const cookie = direct.headers['set-cookie']![0]!.split(';')[0]!;
    const exit = await request(base, '/api/exit', { cookie, 'x-csrf-token': initialData(one).csrf });
    expect(exit.status).toBe(200);
  });

  it('leaves everything else to Fastify: a session, another method or encoding, a query, a page not kept', async () => {
    const { rows } = await t.pool.query(
      "INSERT INTO users (name, email) VALUES ('Dee Direct', 'dee@example.com') RETURNING id",
    );
    await t.pool.query(
      "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')",
      [hashSessionToken('dee-token'), rows[0].id],
    );
    await request(base, PAGE, BROWSER); // kept
    throughFastify.length = 0;
    const signedIn = await request(base, PAGE, { ...BROWSER, cookie: 'kitshop_session=dee-token' });
    expect(initialData(html(signedIn)).user).toEqual({ id: rows[0].id, name: 'Dee Direct' });
    const head = await request(base, PAGE, BROWSER, 'HEAD');
    expect(head.status).toBe(200);
    const brotli = await request(base, PAGE, { 'accept-encoding': 'br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    const identity = await request(base, PAGE, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    await request(base, `${PAGE}?ref=mail`, BROWSER);
    await request(base, '/product/no-such-kit', BROWSER);
    expect(throughFastify).toEqual([PAGE, PAGE, PAGE, PAGE, `${PAGE}?ref=mail`, '/product/no-such-kit']);
    // A new catalog: the page is rendered again, through Fastify, then kept again.
    t.catalog.invalidate();
    throughFastify.length = 0;
    await request(base, PAGE, BROWSER);
    await request(base, PAGE, BROWSER);
    expect(throughFastify).toEqual([PAGE]);
  });

  it('answers no other spelling of a kept page: Fastify sends each to the canonical path, and keeps nothing for it', async () => {
    await request(base, PAGE, BROWSER); // kept
    throughFastify.length = 0;
    for (const url of ['/product/%61lpha-kit', '/product/alpha%2dkit', `${PAGE}/`]) {
      for (let visit = 0; visit < 2; visit++) {
        const moved = await request(base, url, BROWSER);
        expect([moved.status, moved.headers.location], url).toEqual([301, PAGE]);
      }
    }
    expect(throughFastify).toEqual([
      '/product/%61lpha-kit',
      '/product/%61lpha-kit',
      '/product/alpha%2dkit',
      '/product/alpha%2dkit',
      `${PAGE}/`,
      `${PAGE}/`,
    ]);
    // The canonical page is still answered here.
    throughFastify.length = 0;
    expect((await request(base, PAGE, BROWSER)).status).toBe(200);
    expect(throughFastify).toEqual([]);
  });

  it("leaves a purchased item's screen to Fastify, which puts each path in its own page", async () => {
    throughFastify.length = 0;
    for (const url of ['/user-panel/item/alpha-kit', '/user-panel/item/beta-kit', '/user-panel/item/alpha-kit']) {
      const page = await request(base, url, BROWSER);
      expect(page.status).toBe(200);
      expect(initialData(html(page))).toMatchObject({ path: url, user: {} });
    }
    expect(throughFastify).toHaveLength(3);
  });

  it('counts its answers in the request metric under the route Fastify names', async () => {
    const seriesOf = (route: string) =>
      `kitshop_http_request_duration_seconds_count{method="GET",route="${route}",status_code="200"}`;
    const scrapeOf = async (series: string) => {
      const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      const line = res.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    const scrape = () => scrapeOf(seriesOf('/*'));
    await request(base, PAGE, BROWSER);
    const before = await scrape();
    throughFastify.length = 0;
    await request(base, PAGE, BROWSER);
    await request(base, PAGE, BROWSER);
    expect(throughFastify.filter((url) => url === PAGE)).toEqual([]);
    expect(await scrape()).toBe(before + 2);
    // Fastify's own answers of the shell count in that same series.
    await request(base, PAGE, { 'accept-encoding': 'identity' });
    expect(await scrape()).toBe(before + 3);
    // The home page has a route of its own.
    await request(base, '/', BROWSER);
    const home = await scrapeOf(seriesOf('/'));
    throughFastify.length = 0;
    await request(base, '/', BROWSER);
    expect(throughFastify).toEqual([]);
    await request(base, '/', { 'accept-encoding': 'identity' });
    expect(throughFastify).toEqual(['/']);
    expect(await scrapeOf(seriesOf('/'))).toBe(home + 2);
  });

  it("answers POST /api/products without a body itself, with Fastify's headers and bytes, logged and counted", async () => {
    const series = 'kitshop_http_request_duration_seconds_count{method="POST",route="/api/products",status_code="200"}';
    const count = async () => {
      const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      const line = res.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    // What Fastify answers (inject never reaches the server's request event), for each encoding.
    const viaFastify = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/products', headers });
    // The bench's request (no type, no body), a browser's (JSON, an empty body, the CSRF header and
    // cookie), and one that takes no compression.
    const browser = {
      ...BROWSER,
      'content-type': 'application/json',
      'content-length': '0',
      cookie: 'kitshop_csrf=abc',
    };
    for (const headers of [BROWSER, browser, { 'accept-encoding': 'gzip' }, {}]) {
      const fastify = await viaFastify(headers); // also makes the compressed body, once
      const before = await count();
      throughFastify.length = 0;
      const direct = await request(base, '/api/products', headers, 'POST');
      expect(throughFastify).toEqual([]);
      expect(direct.status).toBe(200);
      // Apart from the connection's own headers (inject's answer says keep-alive, this connection closes).
      const { connection: _c, 'keep-alive': _k, ...directHeaders } = sameFor(direct.headers);
      const { connection: _f, ...fastifyHeaders } = sameFor(fastify.headers as http.IncomingHttpHeaders);
      expect(directHeaders).toEqual(fastifyHeaders);
      expect(direct.body.equals(fastify.rawPayload)).toBe(true);
      expect(Number(direct.headers['content-length'])).toBe(direct.body.length);
      expect(direct.headers['set-cookie']).toBeUndefined();
      const line = log.lines().find((l) => l.reqId === direct.headers['x-request-id']);
      expect(line).toMatchObject({ msg: 'request completed', req: { method: 'POST', url: '/api/products' } });
      expect(await count()).toBe(before + 1);
    }
    const kits = JSON.parse((await request(base, '/api/products', {}, 'POST')).body.toString());
    expect(kits.map((kit: { sef_id: string }) => kit.sef_id)).toContain('alpha-kit');
  });

  it('leaves every other POST /api/products to Fastify: a body, a session, another type, a query, a new catalog', async () => {
    await request(base, '/api/products', BROWSER, 'POST'); // the compressed body is kept
    throughFastify.length = 0;
    const json = { ...BROWSER, 'content-type': 'application/json' };
    const withBody = await request(base, '/api/products', json, 'POST', '{}');
    expect(withBody.status).toBe(200);
    const badJson = await request(base, '/api/products', json, 'POST', '{oops');
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body.toString())).toEqual({ message: 'The request body is not valid JSON.' });
    await request(base, '/api/products', { ...BROWSER, cookie: 'kitshop_session=whoever' }, 'POST');
    await request(base, '/api/products', { ...BROWSER, 'content-type': 'text/plain' }, 'POST');
    await request(base, '/api/products', { ...BROWSER, 'content-type': 'application/json; =bad' }, 'POST');
    await request(base, '/api/products?page=2', BROWSER, 'POST');
    t.catalog.invalidate();
    await request(base, '/api/products', BROWSER, 'POST');
    const list = '/api/products';
    expect(throughFastify).toEqual([list, list, list, list, list, `${list}?page=2`, list]);
  });
});

describe('kept pages answered before Fastify, under BASE_PATH=/shop over https', () => {
  let t: TestApp;
  let base: string;
  const throughFastify: string[] = [];
  beforeAll(async () => {
    ({ t, base } = await listeningShop(
      { BASE_PATH: '/shop/', PUBLIC_URL: 'https://example.com/shop' },
      { throughFastify },
    ));
  });
  afterAll(() => t.close());

  it('answers the kept pages under the base path, with the __Host- cookie, and nothing outside it', async () => {
    for (const path of ['/shop/product/alpha-kit', '/shop/']) {
      const first = await request(base, path, BROWSER);
      throughFastify.length = 0;
      const kept = await request(base, path, BROWSER);
      expect(throughFastify).toEqual([]);
      expect(sameFor(kept.headers)).toEqual(sameFor(first.headers));
      expect(cookieAttributes(kept.headers)).toBe(cookieAttributes(first.headers));
      expect(kept.headers['set-cookie']?.[0]).toMatch(/^__Host-kitshop_csrf_shop=[\w-]+; .*Secure/);
      expect(initialData(html(kept))).toMatchObject({
        path: path.slice('/shop'.length),
        baseUrl: 'https://example.com/shop',
      });
    }
    const moved = await request(base, '/shop/product/%61lpha-kit?ref=x', BROWSER);
    expect([moved.status, moved.headers.location]).toEqual([301, '/shop/product/alpha-kit?ref=x']);
    throughFastify.length = 0;
    const outside = await request(base, '/product/alpha-kit', BROWSER);
    expect(outside.status).toBe(404);
    expect(throughFastify).toEqual(['/product/alpha-kit']);
    // The catalog's list, under the base path only.
    await request(base, '/shop/api/products', BROWSER, 'POST');
    throughFastify.length = 0;
    const list = await request(base, '/shop/api/products', BROWSER, 'POST');
    expect(list.status).toBe(200);
    expect(throughFastify).toEqual([]);
    expect((await request(base, '/api/products', BROWSER, 'POST')).status).toBe(404);
    expect(throughFastify).toEqual(['/api/products']);
  });
});

describe('kept pages answered before Fastify, behind a trusted proxy', () => {
  let t: TestApp;
  let base: string;
  const log = captureLog();
  beforeAll(async () => {
    ({ t, base } = await listeningShop({ TRUST_PROXY: '127.0.0.1' }, { log }));
  });
  afterAll(() => t.close());

  it("logs the client's address and host as the proxy forwarded them, as Fastify does, and keeps the proxy's request id", async () => {
    const proxied = {
      ...BROWSER,
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-host': 'shop.example',
      'x-request-id': 'nginx-request-0001',
    };
    const first = await request(base, PAGE, proxied);
    const kept = await request(base, PAGE, { ...proxied, 'x-request-id': 'nginx-request-0002' });
    expect(first.headers['x-request-id']).toBe('nginx-request-0001');
    expect(kept.headers['x-request-id']).toBe('nginx-request-0002');
    const fastify = log.lines().find((l) => l.reqId === 'nginx-request-0001' && l.msg === 'incoming request');
    const direct = log.lines().find((l) => l.reqId === 'nginx-request-0002');
    expect(fastify!.req).toMatchObject({ remoteAddress: '203.0.113.9', host: 'shop.example' });
    expect(direct).toMatchObject({
      msg: 'request completed',
      req: { remoteAddress: '203.0.113.9', host: 'shop.example' },
    });
  });
});
