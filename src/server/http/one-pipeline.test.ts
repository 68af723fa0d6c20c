import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../../../tests/setup/log.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createLogger } from '../server.ts';
import { hashSessionToken } from './session.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const PAGE = '/product/alpha-kit';
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request over a real connection, as a browser's reaches the server. */
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

/** The answer's bytes as sent before compression (gunzip and brotli check the stream as they go). */
const decoded = (answer: Answer) => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  return answer.body;
};
const html = (answer: Answer) => decoded(answer).toString();
const initialData = (page: string) =>
  JSON.parse(/<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(page)![1]!);
/** The headers that differ between any two answers (the request's id, the date, the visitor's own cookie). */
const sameFor = (headers: http.IncomingHttpHeaders) => {
  const { 'x-request-id': _id, date: _date, 'set-cookie': _cookie, 'content-length': _length, ...rest } = headers;
  return rest;
};
const cookieAttributes = (headers: http.IncomingHttpHeaders) => headers['set-cookie']?.[0]?.replace(/=[^;]*/, '=…');

/**
 * A shop with a stand-in renderer, listening on a port; `hooked` collects the URLs that a global
 * hook added after the app was built saw (as a new plugin's hook, a rate limit or tracing, would).
 */
async function listeningShop(
  env: Record<string, string>,
  options: { log?: ReturnType<typeof captureLog>; hooked?: string[] } = {},
): Promise<{ t: TestApp; base: string }> {
  const { log, hooked } = options;
  const t = await createTestApp(env, {
    render: async ({ url }) => `<main>rendered ${url}</main>`,
    ...(log ? { logger: createLogger({ logLevel: 'info' }, log.stream) } : {}),
    ...(hooked
      ? {
          routes: (app) =>
            app.addHook('onRequest', (req, _reply, done) => {
              hooked.push(req.url);
              done();
            }),
        }
      : {}),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

describe('kept pages and the catalog list go through the one pipeline', () => {
  let t: TestApp;
  let base: string;
  const hooked: string[] = [];
  const log = captureLog();

  beforeAll(async () => {
    ({ t, base } = await listeningShop({ PUBLIC_URL: 'http://shop.test', METRICS_TOKEN: TOKEN }, { log, hooked }));
  });
  afterAll(() => t.close());

  it('sends a kept page to a visitor without a session through every global hook, with the same headers and bytes as its first answer', async () => {
    const first = await request(base, PAGE, BROWSER); // renders and keeps the page
    const second = await request(base, PAGE, BROWSER); // the kept page
    expect(hooked).toEqual([PAGE, PAGE]);

    expect(second.status).toBe(200);
    expect(sameFor(second.headers)).toEqual(sameFor(first.headers));
    expect(second.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      vary: 'Cookie, accept-encoding',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
    });
    expect(second.headers['content-security-policy']).toContain("default-src 'self'");
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(Number(second.headers['content-length'])).toBe(second.body.length);
    // Each first visit gets its own CSRF secret, in the same kind of cookie.
    expect(cookieAttributes(second.headers)).toBe(cookieAttributes(first.headers));
    expect(cookieAttributes(second.headers)).toMatch(
      /^kitshop_csrf=…; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(second.headers['set-cookie']).not.toEqual(first.headers['set-cookie']);
    // The same page (gunzip checks the spliced stream's checksum), with this visitor's own token.
    const [one, two] = [html(first), html(second)];
    expect(two).toContain('<main>rendered /product/alpha-kit</main>');
    expect(initialData(two)).toMatchObject({ path: PAGE, user: {} });
    expect(initialData(two).csrf).not.toBe(initialData(one).csrf);
    expect(two).toBe(one.replace(initialData(one).csrf, initialData(two).csrf));
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

  it('sends the kept page in each encoding a client takes: gzip, brotli, identity, none named; HEAD without a body', async () => {
    const gzip = await request(base, PAGE, BROWSER);
    const variants = {
      br: await request(base, PAGE, { 'accept-encoding': 'br' }),
      identity: await request(base, PAGE, { 'accept-encoding': 'identity' }),
      none: await request(base, PAGE),
    };
    expect(variants.br.headers['content-encoding']).toBe('br');
    expect(variants.identity.headers['content-encoding']).toBeUndefined();
    expect(variants.none.headers['content-encoding']).toBeUndefined();
    const page = html(gzip);
    for (const [name, answer] of Object.entries(variants)) {
      expect(answer.status, name).toBe(200);
      const { 'content-encoding': _e, ...headers } = sameFor(answer.headers);
      const { 'content-encoding': _g, ...gzipHeaders } = sameFor(gzip.headers);
      expect(headers, name).toEqual(gzipHeaders);
      expect(Number(answer.headers['content-length']), name).toBe(answer.body.length);
      const text = html(answer);
      expect(text, name).toBe(page.replace(initialData(page).csrf, initialData(text).csrf));
      // Its token belongs to the secret in its cookie: the CSRF check passes with both.
      const cookie = answer.headers['set-cookie']![0]!.split(';')[0]!;
      const exit = await request(base, '/api/exit', { cookie, 'x-csrf-token': initialData(text).csrf });
      expect(exit.status, name).toBe(200);
    }
    const head = await request(base, PAGE, BROWSER, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(sameFor(head.headers)).toEqual(sameFor(gzip.headers));
  });

  it('sends a signed-in visitor, a query or a page not kept its own page', async () => {
    const { rows } = await t.pool.query(
      "INSERT INTO users (name, email) VALUES ('Dee Direct', 'dee@example.com') RETURNING id",
    );
    await t.pool.query(
      "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')",
      [hashSessionToken('dee-token'), rows[0].id],
    );
    await request(base, PAGE, BROWSER); // kept
    const signedIn = await request(base, PAGE, { ...BROWSER, cookie: 'kitshop_session=dee-token' });
    expect(initialData(html(signedIn)).user).toEqual({ id: rows[0].id, name: 'Dee Direct' });
    const withQuery = await request(base, `${PAGE}?ref=mail`, BROWSER);
    expect(initialData(html(withQuery))).toMatchObject({ path: PAGE, user: {} });
    expect((await request(base, '/product/no-such-kit', BROWSER)).status).toBe(404);
    // A new catalog: the page is rendered again, then kept again.
    t.catalog.invalidate();
    expect(html(await request(base, PAGE, BROWSER))).toContain('<main>rendered /product/alpha-kit</main>');
  });

  it('sends another spelling of a kept page to its canonical path', async () => {
    await request(base, PAGE, BROWSER); // kept
    for (const url of ['/product/%61lpha-kit', '/product/alpha%2dkit', `${PAGE}/`]) {
      const moved = await request(base, url, BROWSER);
      expect([moved.status, moved.headers.location], url).toEqual([301, PAGE]);
      expect(moved.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('logs one line per request, with the request, its status and time, under its id', async () => {
    const page = await request(base, PAGE, BROWSER);
    const list = await request(base, '/api/products', BROWSER, 'POST');
    for (const [answer, method, url] of [
      [page, 'GET', PAGE],
      [list, 'POST', '/api/products'],
    ] as const) {
      const lines = log.lines().filter((l) => l.reqId === answer.headers['x-request-id']);
      expect(lines).toEqual([
        expect.objectContaining({
          msg: 'request completed',
          level: 30,
          req: expect.objectContaining({ method, url, host: expect.any(String), remoteAddress: '127.0.0.1' }),
          res: { statusCode: 200 },
          responseTime: expect.any(Number),
        }),
      ]);
    }
  });

  it('counts every answer of the shell in the request metric under the route Fastify names', async () => {
    const seriesOf = (method: string, route: string) =>
      `kitshop_http_request_duration_seconds_count{method="${method}",route="${route}",status_code="200"}`;
    const scrapeOf = async (series: string) => {
      const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      const line = res.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    await request(base, PAGE, BROWSER);
    await request(base, '/', BROWSER);
    const pages = await scrapeOf(seriesOf('GET', '/*'));
    const home = await scrapeOf(seriesOf('GET', '/'));
    const lists = await scrapeOf(seriesOf('POST', '/api/products'));
    await request(base, PAGE, BROWSER);
    await request(base, PAGE, { 'accept-encoding': 'identity' });
    await request(base, '/', BROWSER);
    await request(base, '/api/products', BROWSER, 'POST');
    expect(await scrapeOf(seriesOf('GET', '/*'))).toBe(pages + 2);
    expect(await scrapeOf(seriesOf('GET', '/'))).toBe(home + 1);
    expect(await scrapeOf(seriesOf('POST', '/api/products'))).toBe(lists + 1);
  });

  it('sends the catalog list as the browser and the bench ask for it, through every global hook, in each encoding', async () => {
    const browser = {
      ...BROWSER,
      'content-type': 'application/json',
      'content-length': '0',
      cookie: 'kitshop_csrf=abc',
    };
    const plain = await request(base, '/api/products', {}, 'POST');
    const kits = JSON.parse(plain.body.toString());
    expect(kits.map((kit: { sef_id: string }) => kit.sef_id)).toContain('alpha-kit');
    for (const headers of [BROWSER, browser, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'identity' }]) {
      hooked.length = 0;
      const answer = await request(base, '/api/products', headers, 'POST');
      expect(hooked).toEqual(['/api/products']);
      expect(answer.status).toBe(200);
      expect(answer.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        vary: 'accept-encoding',
        'x-content-type-options': 'nosniff',
      });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(decoded(answer).equals(plain.body)).toBe(true);
    }
    // A body, a bad one, a session, another type: the same route answers each.
    const json = { ...BROWSER, 'content-type': 'application/json' };
    expect((await request(base, '/api/products', json, 'POST', '{}')).status).toBe(200);
    const badJson = await request(base, '/api/products', json, 'POST', '{oops');
    expect([badJson.status, JSON.parse(badJson.body.toString())]).toEqual([
      400,
      { message: 'The request body is not valid JSON.' },
    ]);
    expect((await request(base, '/api/products', { ...BROWSER, cookie: 'kitshop_session=x' }, 'POST')).status).toBe(
      200,
    );
  });
});

describe('the one pipeline under BASE_PATH=/shop over https', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    ({ t, base } = await listeningShop({ BASE_PATH: '/shop/', PUBLIC_URL: 'https://example.com/shop' }));
  });
  afterAll(() => t.close());

  it('sends the kept pages under the base path, with the __Host- cookie, and nothing outside it', async () => {
    for (const path of ['/shop/product/alpha-kit', '/shop/']) {
      const first = await request(base, path, BROWSER);
      const kept = await request(base, path, BROWSER);
      expect(sameFor(kept.headers)).toEqual(sameFor(first.headers));
      expect(kept.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(cookieAttributes(kept.headers)).toBe(cookieAttributes(first.headers));
      expect(kept.headers['set-cookie']?.[0]).toMatch(/^__Host-kitshop_csrf_shop=[\w-]+; .*Secure/);
      expect(initialData(html(kept))).toMatchObject({
        path: path.slice('/shop'.length),
        baseUrl: 'https://example.com/shop',
      });
    }
    const moved = await request(base, '/shop/product/%61lpha-kit?ref=x', BROWSER);
    expect([moved.status, moved.headers.location]).toEqual([301, '/shop/product/alpha-kit?ref=x']);
    expect((await request(base, '/product/alpha-kit', BROWSER)).status).toBe(404);
    expect((await request(base, '/shop/api/products', BROWSER, 'POST')).status).toBe(200);
    expect((await request(base, '/api/products', BROWSER, 'POST')).status).toBe(404);
  });
});

describe('the one pipeline behind a trusted proxy', () => {
  let t: TestApp;
  let base: string;
  const log = captureLog();
  beforeAll(async () => {
    ({ t, base } = await listeningShop({ TRUST_PROXY: '127.0.0.1' }, { log }));
  });
  afterAll(() => t.close());

  it("logs the client's address and host as the proxy forwarded them, and keeps the proxy's request id", async () => {
    const proxied = {
      ...BROWSER,
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-host': 'shop.example',
      'x-request-id': 'nginx-request-0001',
    };
    await request(base, PAGE, proxied);
    const kept = await request(base, PAGE, { ...proxied, 'x-request-id': 'nginx-request-0002' });
    expect(kept.headers['x-request-id']).toBe('nginx-request-0002');
    expect(log.lines().filter((l) => l.reqId === 'nginx-request-0002')).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ remoteAddress: '203.0.113.9', host: 'shop.example' }),
      }),
    ]);
  });
});
