import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/products', () => {
  it('lists active kits in position order with dollar prices', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/products' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const kits = res.json();
    expect(kits.map((k: { sef_id: string }) => k.sef_id)).toEqual(['alpha-kit', 'beta-kit']);
    expect(kits[0]).toMatchObject({
      id: expect.any(Number),
      title: 'Alpha Kit',
      spot: 'The alpha-kit spot text.',
      features: ['Feature 1', 'Feature 2', 'Feature 3', 'Feature 4', 'Feature 5'],
      price: 49,
      discounted_from: 79,
      thumbnail: { url: expect.stringMatching(/^media\/.+-thumb/), alt: expect.any(String) },
      version: '1.1.0',
      released_on: '2025-08-01',
    });
    expect(kits[1]).toMatchObject({ price: 19.5, discounted_from: null });
  });

  it("gives each kit its own version's release date", async () => {
    const [before] = (
      await t.pool.query(`SELECT v.released_on::text AS day FROM kit_versions v JOIN kits k ON k.id = v.kit_id
        WHERE k.sef_id = 'beta-kit' AND v.version = k.version`)
    ).rows;
    const beta = `FROM kits k WHERE k.id = v.kit_id AND k.sef_id = 'beta-kit' AND v.version = k.version`;
    await t.pool.query(`UPDATE kit_versions v SET released_on = '2026-02-03' ${beta}`);
    t.catalog.invalidate();
    try {
      const kits = (await t.app.inject({ method: 'POST', url: '/api/products' })).json();
      expect(kits.map((k: { released_on: string }) => k.released_on)).toEqual(['2025-08-01', '2026-02-03']);
    } finally {
      await t.pool.query(`UPDATE kit_versions v SET released_on = $1 ${beta}`, [before.day]);
      t.catalog.invalidate();
    }
  });

  it('accepts an empty JSON body, {} and no body alike', async () => {
    for (const payload of [undefined, '', '{}']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });
});

describe('POST /api/product/:sefid', () => {
  it('returns the kit with its sanitised details', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/product/alpha-kit' });
    expect(res.statusCode).toBe(200);
    const kit = res.json();
    expect(kit).toMatchObject({ sef_id: 'alpha-kit', documentation: true, price: 49, discounted_from: 79 });
    expect(kit.details.video).toEqual({ id: 'dQw4w9WgXcQ', text: 'A tour' });
    expect(kit.details.included).toHaveLength(10);
    expect(kit.details.heading.features[1]).toBe('<em>Tested</em>');
    expect(kit.details.heading.text).not.toContain('javascript:');
    expect(kit.details.screenshots[0].url).toMatch(/^media\/screenshots\/alpha-kit\/[0-9a-f]{16}-dashboard\.png$/);
  });

  it('says documentation is false for a kit without docs', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/product/beta-kit' });
    expect(res.json().documentation).toBe(false);
  });

  it('answers a malformed URL with 400 and a message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/product/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('message');
  });

  it.each(['no-such-kit', 'UPPER', 'a'.repeat(150), '..%2f..%2fetc'])('answers 404 for %s', async (sef) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/product/${sef}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('message');
  });
});

describe('GET /api/docs/:sefid', () => {
  it('returns the pages in file order', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/alpha-kit' });
    expect(res.statusCode).toBe(200);
    expect(res.json().pages.map((p: { slug: string; title: string }) => [p.slug, p.title])).toEqual([
      ['introduction', 'Introduction'],
      ['deploy', 'Deploy'],
    ]);
  });

  it('answers 404 for a kit without docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/beta-kit' });
    expect(res.statusCode).toBe(404);
  });
});

describe('media', () => {
  it('serves imported screenshots with immutable caching', async () => {
    const kit = (await t.app.inject({ method: 'POST', url: '/api/product/alpha-kit' })).json();
    const res = await t.app.inject({ method: 'GET', url: `/${kit.details.screenshots[0].url}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toContain('immutable');
  });
});

describe('compressed answers (kept per catalog snapshot)', () => {
  const decode = (encoding: string | undefined, bytes: Buffer) =>
    encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;

  it.each([
    ['POST', '/api/products'],
    ['POST', '/api/product/alpha-kit'],
    ['GET', '/api/docs/alpha-kit'],
  ] as const)('%s %s: the same JSON in brotli, gzip or as it is, whichever the client takes', async (method, url) => {
    const plain = await t.app.inject({ method, url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['identity', undefined],
      ['compress', undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary).toBe('accept-encoding');
      expect(decode(encoding, res.rawPayload).toString(), accept).toBe(plain.body);
    }
  });

  it('compresses a new catalog: an edit is not hidden behind an old compressed copy', async () => {
    const accept = { 'accept-encoding': 'br' };
    const before = await t.app.inject({ method: 'POST', url: '/api/products', headers: accept });
    await t.pool.query("UPDATE kits SET title = 'Alpha Kit Renamed' WHERE sef_id = 'alpha-kit'");
    t.catalog.invalidate();
    try {
      const after = await t.app.inject({ method: 'POST', url: '/api/products', headers: accept });
      expect(brotliDecompressSync(before.rawPayload).toString()).toContain('"Alpha Kit"');
      expect(brotliDecompressSync(after.rawPayload).toString()).toContain('"Alpha Kit Renamed"');
    } finally {
      await t.pool.query("UPDATE kits SET title = 'Alpha Kit' WHERE sef_id = 'alpha-kit'");
      t.catalog.invalidate();
    }
  });
});
