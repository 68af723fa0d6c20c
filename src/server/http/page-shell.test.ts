import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../../../tests/setup/test-app.ts';
import { KeptPages } from './kept-pages.ts';
import type { ShellPage } from './page-shell.ts';
import { hashSessionToken } from './session.ts';

const initialData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(html)![1]!);
const clientConfig = (html: string) => JSON.parse(/id="client-config">(.*?)<\/script>/.exec(html)![1]!);

/** A user with a session (cookie `kitshop_session` = `token`) for an hour; their id. */
async function withSession(t: TestApp, name: string, token: string): Promise<number> {
  const { rows } = await t.pool.query('INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id', [
    name,
    `${token}@example.com`,
  ]);
  await t.pool.query(
    "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')",
    [hashSessionToken(token), rows[0].id],
  );
  return rows[0].id;
}

describe('page shell at the root', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://shop.test' });
  });
  afterAll(() => t.close());

  it('embeds the initial data for a signed-out visitor', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product/alpha-kit?ref=x' });
    expect(res.statusCode).toBe(200);
    const data = initialData(res.body);
    expect(data).toEqual({
      path: '/product/alpha-kit',
      csrf: expect.any(String),
      baseUrl: 'http://shop.test',
      user: {},
    });
    expect(data.csrf.length).toBeGreaterThan(20);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('renders the head for search engines and sharing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product/alpha-kit' });
    expect(res.body).toContain('<title>Alpha Kit</title>');
    expect(res.body).toContain('<meta name="description" content="The alpha-kit spot text.">');
    expect(res.body).toContain('<link rel="canonical" href="http://shop.test/product/alpha-kit">');
    expect(res.body).toContain('<meta property="og:title" content="Alpha Kit">');
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(res.body)![1]!);
    expect(ld).toMatchObject({
      '@type': 'Product',
      name: 'Alpha Kit',
      offers: { '@type': 'Offer', price: '49.00', priceCurrency: 'USD' },
    });
  });

  it('shares every public page with a picture: its own, or the shop’s 1200x630 one', async () => {
    const about = await t.app.inject({ method: 'GET', url: '/about' });
    expect(about.body).toContain('<meta property="og:image" content="http://shop.test/share.jpg">');
    expect(about.body).toContain('<meta property="og:image:width" content="1200">');
    expect(about.body).toContain('<meta name="twitter:card" content="summary_large_image">');
    const file = readFileSync(new URL('../../web/public/share.jpg', import.meta.url));
    // A JPEG (SOI marker) of 1200x630: the SOF0 frame's height and width.
    expect(file.subarray(0, 2).toString('hex')).toBe('ffd8');
    const sof = file.indexOf(Buffer.from([0xff, 0xc0]));
    expect([file.readUInt16BE(sof + 5), file.readUInt16BE(sof + 7)]).toEqual([630, 1200]);
    const product = await t.app.inject({ method: 'GET', url: '/product/alpha-kit' });
    const images = [...product.body.matchAll(/<meta property="og:image" content="([^"]+)">/g)].map((m) => m[1]);
    expect(images).toHaveLength(1);
    expect(images[0]).not.toBe('http://shop.test/share.jpg');
  });

  it('sends a strict Content-Security-Policy and the other security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps JSON in the data block from closing the script element', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<script>alert(1)');
  });

  it.each([
    ['/no-such-page', 404],
    ['/product/no-such-kit', 404],
    ['/docs/beta-kit', 404],
    ['/docs/alpha-kit/no-such-page', 404],
    ['/docs/alpha-kit', 200],
    ['/docs/alpha-kit/deploy', 200],
    ['/', 200],
  ])('answers %s with %i and the shell', async (url, status) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('id="initial-data"');
    if (status === 404) expect(res.body).toContain('<meta name="robots" content="noindex">');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: '/api/nothing-here' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });

  it('reports health and readiness', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('publishes a sitemap and robots.txt', async () => {
    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain('<loc>http://shop.test/product/alpha-kit</loc><lastmod>2025-08-01</lastmod>');
    expect(sitemap.body).toContain('<loc>http://shop.test/docs/alpha-kit</loc><lastmod>2025-08-01</lastmod>');
    expect(sitemap.body).not.toContain('/docs/beta-kit');
    expect(sitemap.body).toContain('<loc>http://shop.test/refund-policy</loc>');
    expect(sitemap.body).toContain('<loc>http://shop.test/licence</loc>');
    expect(sitemap.body).toContain('<loc>http://shop.test/support</loc>');
    expect(sitemap.body).toMatch(
      /<loc>http:\/\/shop\.test\/blog\/newer-post<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/,
    );
    // Private screens stay out.
    expect(sitemap.body).not.toMatch(/user-panel|checkout|\/cart|\/login|\/admin/);
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.body).toContain('Sitemap: http://shop.test/sitemap.xml');
  });
});

describe('page shell for a signed-in user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('puts {id, name} in the initial data, and {} once the session has expired', async () => {
    const id = await withSession(t, 'Ada', 'good-token');
    await t.pool.query(
      "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() - interval '1 second')",
      [hashSessionToken('old-token'), id],
    );
    const signedIn = await t.app.inject({ method: 'GET', url: '/', cookies: { kitshop_session: 'good-token' } });
    expect(initialData(signedIn.body).user).toEqual({ id, name: 'Ada' });
    const expired = await t.app.inject({ method: 'GET', url: '/', cookies: { kitshop_session: 'old-token' } });
    expect(initialData(expired.body).user).toEqual({});
    const forged = await t.app.inject({ method: 'GET', url: '/', cookies: { kitshop_session: 'x'.repeat(500) } });
    expect(initialData(forged.body).user).toEqual({});
  });
});

describe('under BASE_PATH=/shop over https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BASE_PATH: '/shop/', PUBLIC_URL: 'https://example.com/shop' });
  });
  afterAll(() => t.close());

  it('serves every route under the base path only', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/shop/product/alpha-kit' });
    expect(page.statusCode).toBe(200);
    expect(initialData(page.body)).toMatchObject({ path: '/product/alpha-kit', baseUrl: 'https://example.com/shop' });
    expect(page.body).toContain('<link rel="canonical" href="https://example.com/shop/product/alpha-kit">');
    expect((await t.app.inject({ method: 'POST', url: '/shop/api/products' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/shop/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/shop' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/products' })).statusCode).toBe(404);
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/shop/');
  });

  it('sets __Host- cookies named for the base path, HSTS and upgrade-insecure-requests', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/shop/' });
    const csrfCookie = page.cookies.find((c) => c.name === '__Host-kitshop_csrf_shop')!;
    expect(csrfCookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax', secure: true });
    expect(page.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(String(page.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });
});

describe('with Paddle as the payment provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      PAYMENT_PROVIDER: 'paddle',
      PADDLE_CLIENT_TOKEN: 'live_token',
      PADDLE_WEBHOOK_SECRET: 'pdl_secret',
    });
  });
  afterAll(() => t.close());

  it("lets Paddle's origins into the CSP, tells the page the provider, and has no sandbox", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/checkout' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('https://cdn.paddle.com');
    expect(csp).toContain('https://buy.paddle.com');
    const config = clientConfig(res.body);
    expect(config.payment).toEqual({ provider: 'paddle', clientToken: 'live_token', environment: 'sandbox' });
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/checkout?order_id=x' })).statusCode).toBe(404);
  });

  it('keeps Paddle out of the CSP with the sandbox', async () => {
    const sandbox = await createTestApp();
    try {
      const res = await sandbox.app.inject({ method: 'GET', url: '/' });
      expect(String(res.headers['content-security-policy'])).not.toContain('paddle');
    } finally {
      await sandbox.close();
    }
  });
});

describe('a production shop on the sandbox provider', () => {
  it('tells every page that payments are test payments, and names its __Host- cookies', async () => {
    const t = await createTestApp({ ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'sandbox' });
    try {
      for (const url of ['/', '/checkout', '/cookie-policy', '/no-such-page']) {
        expect(clientConfig((await t.app.inject({ method: 'GET', url })).body).testPayments, url).toBe(true);
      }
      expect(clientConfig((await t.app.inject({ method: 'GET', url: '/' })).body).cookies).toEqual({
        session: '__Host-kitshop_session',
        csrf: '__Host-kitshop_csrf',
        oidc: '__Host-kitshop_oidc',
        signIn: '__Host-kitshop_signin',
      });
    } finally {
      await t.close();
    }
  });

  it('says nothing of test payments with Paddle, or outside production', async () => {
    const paddle = await createTestApp({
      ...PRODUCTION_ENV,
      PAYMENT_PROVIDER: 'paddle',
      PADDLE_CLIENT_TOKEN: 'live_token',
      PADDLE_WEBHOOK_SECRET: 'pdl_secret',
    });
    const development = await createTestApp({ PAYMENT_PROVIDER: 'sandbox' });
    try {
      expect(clientConfig((await paddle.app.inject({ method: 'GET', url: '/' })).body).testPayments).toBe(false);
      const config = clientConfig((await development.app.inject({ method: 'GET', url: '/' })).body);
      expect(config.testPayments).toBe(false);
      expect(config.cookies).toEqual({
        session: 'kitshop_session',
        csrf: 'kitshop_csrf',
        oidc: 'kitshop_oidc',
        signIn: 'kitshop_signin',
      });
    } finally {
      await paddle.close();
      await development.close();
    }
  });
});

describe('page shell with the server renderer', () => {
  let t: TestApp;
  const calls: { url: string; queries: [readonly unknown[], unknown][] }[] = [];
  let failing = false;
  beforeAll(async () => {
    t = await createTestApp(
      { PUBLIC_URL: 'http://shop.test' },
      {
        render: async ({ url, queries }) => {
          calls.push({ url, queries });
          if (failing) throw new Error('a screen that throws');
          return `<main>rendered ${url}</main>`;
        },
      },
    );
  });
  afterAll(() => t.close());
  const pageQueries = (html: string) =>
    JSON.parse(/<script type="application\/json" id="page-queries">(.*?)<\/script>/.exec(html)![1]!);

  it('renders a product page into #root with the kit it asks for, and embeds that answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product/alpha-kit' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"><main>rendered /product/alpha-kit</main></div>');
    const [[key, product]] = pageQueries(res.body);
    expect(key).toEqual(['product', 'alpha-kit']);
    expect(product).toMatchObject({ sef_id: 'alpha-kit', title: 'Alpha Kit', price: 49 });
    // The kit as the API answers it: the browser's cache holds the same thing either way.
    const api = await t.app.inject({ method: 'POST', url: '/api/product/alpha-kit', payload: {} });
    expect(product).toEqual(api.json());
  });

  it('keeps a rendered page per URL: a second visitor gets it without another render, with their own data', async () => {
    calls.length = 0;
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const second = await t.app.inject({ method: 'GET', url: '/' });
    expect(calls.map((c) => c.url)).toEqual(['/']);
    expect(pageQueries(first.body).map(([key]: [unknown[]]) => key)).toContainEqual(['products']);
    expect(initialData(first.body).csrf).not.toBe(initialData(second.body).csrf);
    // With a query the page is rendered for that request: a screen may read it.
    calls.length = 0;
    await t.app.inject({ method: 'GET', url: '/?utm_source=x' });
    await t.app.inject({ method: 'GET', url: '/?utm_source=x' });
    expect(calls.map((c) => c.url)).toEqual(['/?utm_source=x', '/?utm_source=x']);
  });

  it('sends a kept page to a visitor without a session at once, and renders it again for a new catalog', async () => {
    await t.app.inject({ method: 'GET', url: '/product/alpha-kit' });
    const snapshot = vi.spyOn(t.catalog, 'snapshot');
    try {
      calls.length = 0;
      const kept = await t.app.inject({ method: 'GET', url: '/product/alpha-kit' });
      expect(kept.body).toContain('rendered /product/alpha-kit');
      expect(initialData(kept.body).user).toEqual({});
      // Neither rendered nor asked of the catalog: the page kept from the snapshot in memory.
      expect(calls).toEqual([]);
      expect(snapshot).not.toHaveBeenCalled();
      t.catalog.invalidate();
      const fresh = await t.app.inject({ method: 'GET', url: '/product/alpha-kit' });
      expect(fresh.statusCode).toBe(200);
      expect(calls.map((c) => c.url)).toEqual(['/product/alpha-kit']);
      expect(snapshot).toHaveBeenCalled();
    } finally {
      snapshot.mockRestore();
    }
  });

  it("sends a kept page gzipped as it was compressed once, with this visitor's own data inside", async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/product/alpha-kit' });
    calls.length = 0;
    const zipped = await t.app.inject({
      method: 'GET',
      url: '/product/alpha-kit',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(calls).toEqual([]);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Cookie, accept-encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
    // gunzip checks the trailer's checksum and length: the spliced stream is one whole gzip member.
    const html = gunzipSync(zipped.rawPayload).toString();
    const data = initialData(html);
    expect(data.csrf).not.toBe(initialData(plain.body).csrf);
    expect(html).toBe(plain.body.replace(initialData(plain.body).csrf, data.csrf));
    // A signed-in visitor's name is in their own copy only.
    const id = await withSession(t, 'Ann Gzip', 'ann-token');
    const own = await t.app.inject({
      method: 'GET',
      url: '/product/alpha-kit',
      headers: { 'accept-encoding': 'gzip' },
      cookies: { kitshop_session: 'ann-token' },
    });
    expect(own.headers['content-encoding']).toBe('gzip');
    expect(initialData(gunzipSync(own.rawPayload).toString()).user).toEqual({ id, name: 'Ann Gzip' });
    // A session that has ended is a visitor without one: the same kept page, compressed around the token.
    const ended = await t.app.inject({
      method: 'GET',
      url: '/product/alpha-kit',
      headers: { 'accept-encoding': 'gzip' },
      cookies: { kitshop_session: 'no-such-session' },
    });
    const endedHtml = gunzipSync(ended.rawPayload).toString();
    expect(initialData(endedHtml).user).toEqual({});
    expect(endedHtml).toBe(html.replace(data.csrf, initialData(endedHtml).csrf));
    expect(Number(ended.headers['content-length'])).toBe(ended.rawPayload.length);
  });

  it('compresses a page rendered for one request as the on-the-fly compression would, and not for a client that takes none', async () => {
    const once = await t.app.inject({ method: 'GET', url: '/?utm_source=x', headers: { 'accept-encoding': 'br' } });
    expect(once.headers['content-encoding']).toBe('br');
    expect(initialData(brotliDecompressSync(once.rawPayload).toString()).path).toBe('/');
    const none = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(initialData(none.body).path).toBe('/');
  });

  it('renders the not-found page, but neither the private screens nor the owner console', async () => {
    calls.length = 0;
    expect((await t.app.inject({ method: 'GET', url: '/no-such-page' })).body).toContain('rendered /no-such-page');
    for (const url of ['/checkout', '/user-panel', '/admin', '/admin/orders']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).toContain('<div id="root"></div>');
    }
    expect(calls.map((c) => c.url)).toEqual(['/no-such-page']);
  });

  it('sends the page for the browser to render when a screen fails on the server, never the error', async () => {
    failing = true;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/licence?fresh=1' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('a screen that throws');
    } finally {
      failing = false;
    }
  });
});

describe('the pages the shell keeps', () => {
  const rendered: string[] = [];
  const render = async ({ url }: { url: string }) => {
    rendered.push(url);
    return `<main>rendered ${url}</main>`;
  };
  /** A shop with the stand-in renderer whose kept pages the test can count. */
  async function shopKeeping(limit?: number) {
    const keptPages = new KeptPages<ShellPage>(limit);
    const t = await createTestApp({ PUBLIC_URL: 'http://shop.test' }, { render, keptPages });
    return { t, keptPages };
  }
  const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
  /** The path with the characters at the bits of `mask` percent-encoded (in lower or upper case). */
  const spelled = (path: string, mask: number) =>
    [...path]
      .map((c, i) => {
        if (!(mask & (2 ** i))) return c;
        const hex = c.charCodeAt(0).toString(16);
        return `%${mask & 1 ? hex : hex.toUpperCase()}`;
      })
      .join('');

  it('keeps no page for a made-up path or another spelling of a real one, however many are asked for', async () => {
    const { t, keptPages } = await shopKeeping();
    try {
      const real = ['/', '/product/alpha-kit', '/docs/alpha-kit', '/docs/alpha-kit/deploy', '/about', '/checkout'];
      for (const url of [...real, '/user-panel/item/alpha-kit']) expect((await get(t, url)).statusCode, url).toBe(200);
      // One page per real screen; the purchased item's screen is one page for every kit it may name.
      expect(keptPages.size).toBe(real.length + 1);

      const moved: [string, string][] = [];
      for (let mask = 1; mask <= 600; mask++) {
        // The kit's and the page's names spelled another way (a `%2F` would make them one name).
        const path = `/docs/${spelled('alpha-kit', mask & 511)}/${spelled('deploy', mask >> 9)}`;
        moved.push([path, '/docs/alpha-kit/deploy']);
      }
      for (let mask = 1; mask <= 200; mask++)
        moved.push([`/product/${spelled('alpha-kit', mask)}`, '/product/alpha-kit']);
      moved.push(
        ['/product/alpha-kit/', '/product/alpha-kit'],
        ['/about/', '/about'],
        ['/docs/alpha-kit/', '/docs/alpha-kit'],
      );
      for (const [url, canonical] of moved) {
        const res = await get(t, url);
        expect([res.statusCode, res.headers.location], url).toEqual([301, canonical]);
      }
      for (let i = 0; i < 150; i++) {
        expect((await get(t, `/product/made-up-${i}`)).statusCode).toBe(404);
        expect((await get(t, `/docs/made-up-${i}`)).statusCode).toBe(404);
        expect((await get(t, `/blog%2Fmade-up-${i}`)).statusCode).toBe(404);
        expect((await get(t, `/%61bout-${i}`)).statusCode).toBe(404);
        const item = await get(t, `/user-panel/item/made-up-${i}`);
        expect(item.statusCode).toBe(200);
        expect(initialData(gunzipSync(item.rawPayload).toString()).path).toBe(`/user-panel/item/made-up-${i}`);
      }
      expect(keptPages.size).toBe(real.length + 1);

      // The real pages are all still kept: asked for again, none is rendered again.
      rendered.length = 0;
      for (const url of real) expect((await get(t, url)).statusCode).toBe(200);
      expect(rendered).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('sends another spelling of a real page to its canonical path, with its query, and a made-up kit to 404', async () => {
    const { t, keptPages } = await shopKeeping();
    try {
      const cases = [
        ['/product/%61lpha-kit?ref=mail', '/product/alpha-kit?ref=mail'],
        ['/product/alpha%2Dkit', '/product/alpha-kit'],
        ['/docs/alpha-kit/%64eploy/', '/docs/alpha-kit/deploy'],
        ['/cookie-policy/', '/cookie-policy'],
        ['/user-panel/item/%61lpha-kit', '/user-panel/item/alpha-kit'],
        ['/user-panel/item/a%2fb', '/user-panel/item/a%2Fb'],
      ];
      for (const [url, canonical] of cases) {
        const res = await get(t, url!);
        expect([res.statusCode, res.headers.location], url).toEqual([301, canonical]);
      }
      expect(keptPages.size).toBe(0);
      // The canonical page renders as before, with its own head.
      const page = await get(t, '/docs/alpha-kit/deploy');
      expect(page.statusCode).toBe(200);
      expect(gunzipSync(page.rawPayload).toString()).toContain(
        '<link rel="canonical" href="http://shop.test/docs/alpha-kit/deploy">',
      );
      expect(keptPages.size).toBe(1);
      for (const url of ['/product/%6Eo-such-kit', '/docs/no-such-kit/deploy', '/docs/alpha-kit/%6Eo-such-page']) {
        expect((await get(t, url)).statusCode, url).toBe(404);
      }
      expect(keptPages.size).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("keeps one page for every purchased item's path, with each visitor's own path and user in it", async () => {
    const { t, keptPages } = await shopKeeping();
    try {
      const id = await withSession(t, 'Ida Item', 'ida-token');
      for (const sefId of ['alpha-kit', 'beta-kit', 'alpha-kit', 'whatever']) {
        const url = `/user-panel/item/${sefId}`;
        for (const cookies of [{}, { kitshop_session: 'ida-token' }] as Record<string, string>[]) {
          const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' }, cookies });
          expect(res.statusCode).toBe(200);
          const html = gunzipSync(res.rawPayload).toString();
          expect(html).toContain('<meta name="robots" content="noindex">');
          expect(initialData(html)).toMatchObject({ path: url, user: 'kitshop_session' in cookies ? { id } : {} });
        }
        // Without gzip too.
        const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
        expect(initialData(plain.body).path).toBe(url);
      }
      expect(keptPages.size).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('makes room for a new page by dropping the one used least recently, and keeps the others', async () => {
    const { t, keptPages } = await shopKeeping(3);
    try {
      for (const url of ['/about', '/contact', '/licence']) await get(t, url);
      await get(t, '/about'); // now /contact is the least recently used
      rendered.length = 0;
      await get(t, '/cookie-policy');
      expect(keptPages.size).toBe(3);
      for (const url of ['/about', '/licence', '/cookie-policy']) await get(t, url);
      expect(rendered).toEqual(['/cookie-policy']);
      await get(t, '/contact');
      expect(rendered).toEqual(['/cookie-policy', '/contact']);
      expect(keptPages.size).toBe(3);
    } finally {
      await t.close();
    }
  });
});
