import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import { type Client, createClient, signedInClient, signedInOwner } from '../../../../tests/setup/client.ts';
import { createTestApp, FIXTURE_CATALOG, type TestApp } from '../../../../tests/setup/test-app.ts';
import { createLocalStorage } from '../../integrations/storage/storage.ts';
import { importCatalog } from '../catalog/catalog.import.ts';
import { buildArchive } from '../catalog/catalog.read.ts';

let t: TestApp;
let alpha: { id: number; sef_id: string };
let owner: Client;
let ownerId: number;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test' });
  const signedIn = await signedInOwner(t.app, t.pool, 'alpha-kit');
  alpha = signedIn.kit;
  ownerId = signedIn.user.id;
  owner = signedIn.client;
});
afterAll(() => t.close());

describe('GET /download/:id', () => {
  it('streams the newest archive to its owner, with its name, length, ETag, and logs it', async () => {
    const res = await owner.get(`/download/${alpha.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="alpha-kit-1.1.0.zip"');
    expect(res.headers['content-encoding']).toBeUndefined();
    const bytes = res.rawPayload;
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    const { rows } = await t.pool.query('SELECT sha256, size_bytes FROM kit_versions WHERE kit_id = $1', [alpha.id]);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(rows[0].sha256);
    expect(res.headers.etag).toBe(`"${rows[0].sha256}"`);
    expect(Object.keys(unzipSync(new Uint8Array(bytes)))).toEqual(['alpha-kit-1.1.0/README.md']);
    const logged = await t.pool.query('SELECT user_id, kit_id FROM downloads WHERE user_id = $1', [ownerId]);
    expect(logged.rows).toEqual([{ user_id: ownerId, kit_id: alpha.id }]);
    expect((await owner.get(`/download/${alpha.id}`, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(
      304,
    );
  });

  it('answers ranges with 206, and an unsatisfiable range with 416', async () => {
    const full = (await owner.get(`/download/${alpha.id}`)).rawPayload;
    const part = await owner.get(`/download/${alpha.id}`, { range: 'bytes=10-19' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${full.length}`);
    expect(part.rawPayload.equals(full.subarray(10, 20))).toBe(true);
    const tail = await owner.get(`/download/${alpha.id}`, { range: 'bytes=-5' });
    expect(tail.rawPayload.equals(full.subarray(full.length - 5))).toBe(true);
    const bad = await owner.get(`/download/${alpha.id}`, { range: `bytes=${full.length}-` });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${full.length}`);
    expect(bad.json()).toEqual({ message: 'That byte range is not in the file.' });
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    expect(bad.headers['content-disposition']).toBeUndefined();
  });

  it('serves a range only for the archive it was asked of (If-Range), and HEAD without a body', async () => {
    const full = await owner.get(`/download/${alpha.id}`);
    const etag = full.headers.etag as string;
    const resumed = await owner.get(`/download/${alpha.id}`, { range: 'bytes=10-', 'if-range': etag });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.rawPayload.equals(full.rawPayload.subarray(10))).toBe(true);
    const stale = await owner.get(`/download/${alpha.id}`, { range: 'bytes=10-', 'if-range': '"an-older-archive"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(full.rawPayload)).toBe(true);
    expect(stale.headers['accept-ranges']).toBe('bytes');
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/download/${alpha.id}`,
      headers: { cookie: [...owner.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(full.rawPayload.length));
    expect(head.headers.etag).toBe(etag);
    expect(head.headers['content-disposition']).toBe('attachment; filename="alpha-kit-1.1.0.zip"');
    expect(head.rawPayload.length).toBe(0);
  });

  it('logs a download once: not a resumed range, a HEAD, a 304 or a 416', async () => {
    const count = async () =>
      Number((await t.pool.query('SELECT count(*) FROM downloads WHERE user_id = $1', [ownerId])).rows[0].count);
    const before = await count();
    const full = await owner.get(`/download/${alpha.id}`);
    expect(await count()).toBe(before + 1);
    await owner.get(`/download/${alpha.id}`, { range: 'bytes=100-' });
    await owner.get(`/download/${alpha.id}`, { 'if-none-match': full.headers.etag as string });
    await owner.get(`/download/${alpha.id}`, { range: `bytes=${full.rawPayload.length}-` });
    await t.app.inject({
      method: 'HEAD',
      url: `/download/${alpha.id}`,
      headers: { cookie: [...owner.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(await count()).toBe(before + 1);
    await owner.get(`/download/${alpha.id}`, { range: 'bytes=0-99' });
    expect(await count()).toBe(before + 2);
  });

  it('answers 401 signed out, 403 to another user, 404 for an unknown or malformed id', async () => {
    expect((await (await createClient(t.app)).get(`/download/${alpha.id}`)).statusCode).toBe(401);
    const { client: stranger } = await signedInClient(t.app, t.pool);
    expect((await stranger.get(`/download/${alpha.id}`)).statusCode).toBe(403);
    expect((await stranger.get('/download/99999')).statusCode).toBe(404);
    expect((await stranger.get('/download/abc')).statusCode).toBe(404);
  });
  it('answers a clear 404 when the archive is missing from storage', async () => {
    const { rows } = await t.pool.query(
      'SELECT storage_key FROM kit_versions WHERE kit_id = $1 ORDER BY id DESC LIMIT 1',
      [alpha.id],
    );
    const file = path.join(t.dataDir, 'files', 'private', rows[0].storage_key);
    const moved = `${file}.away`;
    renameSync(file, moved);
    try {
      const res = await owner.get(`/download/${alpha.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'This download is not available right now. Please contact support.' });
    } finally {
      renameSync(moved, file);
    }
  });
});

describe('POST /api/item/:sefid', () => {
  it('gives the owner the sanitised setup guide, 403 to others and 401 signed out', async () => {
    const res = await owner.post('/api/item/alpha-kit', { details: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      title: 'Alpha Kit',
      spot: 'The alpha-kit spot text.',
      setup: expect.stringContaining('<h2 id="quick-start">Quick Start</h2>'),
    });
    expect(res.json().setup).toContain('<h2 id="how-to-modify">How to Modify</h2>');
    expect((await owner.post('/api/item/beta-kit', { details: true })).statusCode).toBe(403);
    expect((await owner.post('/api/item/no-such-kit', { details: true })).statusCode).toBe(404);
    expect((await (await createClient(t.app)).post('/api/item/alpha-kit', { details: true })).statusCode).toBe(401);
  });
});

describe('versions', () => {
  it('builds the same archive from the same source (reproducible)', async () => {
    const source = path.join(FIXTURE_CATALOG, 'kits/alpha-kit/source');
    const a = await buildArchive(source, 'alpha-kit-1.1.0', '2025-08-01');
    const b = await buildArchive(source, 'alpha-kit-1.1.0', '2025-08-01');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('serves a newly imported version, marks the purchase updated, mails owners once, and keeps the old version', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-versions-'));
    try {
      cpSync(FIXTURE_CATALOG, dir, { recursive: true });
      const kitJson = path.join(dir, 'kits/alpha-kit/kit.json');
      writeFileSync(kitJson, JSON.stringify({ ...JSON.parse(readFileSync(kitJson, 'utf8')), version: '1.2.0' }));
      const changelog = path.join(dir, 'kits/alpha-kit/CHANGELOG.md');
      writeFileSync(
        changelog,
        readFileSync(changelog, 'utf8').replace(
          '# Changelog\n',
          '# Changelog\n\n## 1.2.0 - 2025-10-01\n\n- Faster builds\n',
        ),
      );
      writeFileSync(path.join(dir, 'kits/alpha-kit/source/NEW.md'), 'new file\n');
      const ctx = { publicUrl: 'http://shop.test', supportEmail: 'help@shop.test' };
      await importCatalog(t.db, createLocalStorage(t.dataDir), dir, ctx);
      await importCatalog(t.db, createLocalStorage(t.dataDir), dir, ctx); // again: nothing new
      const res = await owner.get(`/download/${alpha.id}`);
      expect(res.headers['content-disposition']).toBe('attachment; filename="alpha-kit-1.2.0.zip"');
      expect(Object.keys(unzipSync(new Uint8Array(res.rawPayload))).sort()).toEqual([
        'alpha-kit-1.2.0/NEW.md',
        'alpha-kit-1.2.0/README.md',
      ]);
      const versions = await t.pool.query('SELECT version FROM kit_versions WHERE kit_id = $1 ORDER BY id', [alpha.id]);
      expect(versions.rows.map((r) => r.version)).toEqual(['1.1.0', '1.2.0']);
      await t.deliverMail();
      const updates = t.mails.filter((m) => m.subject === 'Alpha Kit 1.2.0 is available');
      expect(updates).toHaveLength(1);
      expect(updates[0]!.text).toContain('Faster builds');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('marks a purchase updated when a version came after the last download', async () => {
    await t.pool.query("UPDATE downloads SET created_at = now() - interval '1 day' WHERE user_id = $1", [ownerId]);
    await t.pool.query("UPDATE kit_versions SET created_at = now() WHERE kit_id = $1 AND version = '1.2.0'", [
      alpha.id,
    ]);
    const [item] = (await owner.post('/api/purchases')).json().items;
    expect(item).toMatchObject({ version: '1.2.0', released_on: '2025-10-01', updated: true });
    await owner.get(`/download/${alpha.id}`);
    expect((await owner.post('/api/purchases')).json().items[0].updated).toBe(false);
  });

  it("keeps a kit that left the catalog in its owner's purchases, item page and downloads", async () => {
    await t.pool.query('UPDATE kits SET active = false WHERE id = $1', [alpha.id]);
    try {
      expect((await owner.post('/api/purchases')).json().items).toMatchObject([
        { id: alpha.id, version: '1.2.0', listed: false, documentation: false },
      ]);
      expect((await owner.post('/api/item/alpha-kit')).json()).toMatchObject({ title: 'Alpha Kit' });
      expect((await owner.get(`/download/${alpha.id}`)).statusCode).toBe(200);
    } finally {
      await t.pool.query('UPDATE kits SET active = true WHERE id = $1', [alpha.id]);
    }
  });

  it("says which of a purchase's pages exist: docs only for a kit with docs, neither for a hidden kit", async () => {
    const items = async () =>
      Object.fromEntries(
        (await owner.post('/api/purchases')).json().items.map((i: { sef_id: string }) => [i.sef_id, i]),
      );
    const { rows } = await t.pool.query("SELECT id FROM kits WHERE sef_id = 'beta-kit'");
    await grantKits(t.pool, ownerId, [rows[0].id]);
    expect(await items()).toMatchObject({
      'alpha-kit': { listed: true, documentation: true },
      'beta-kit': { listed: true, documentation: false },
    });
    // The pages those flags stand for answer as promised.
    expect((await owner.get('/api/docs/alpha-kit')).statusCode).toBe(200);
    expect((await owner.get('/api/docs/beta-kit')).statusCode).toBe(404);
    await t.pool.query('UPDATE kits SET hidden_at = now() WHERE id = $1', [alpha.id]);
    t.catalog.invalidate();
    try {
      expect((await items())['alpha-kit']).toMatchObject({ listed: false, documentation: false });
      expect((await owner.get('/api/docs/alpha-kit')).statusCode).toBe(404);
      expect((await owner.post('/api/product/alpha-kit')).statusCode).toBe(404);
      expect((await owner.get(`/download/${alpha.id}`)).statusCode).toBe(200);
    } finally {
      await t.pool.query('UPDATE kits SET hidden_at = NULL WHERE id = $1', [alpha.id]);
      t.catalog.invalidate();
    }
  });

  it('stops downloads of a refunded kit', async () => {
    await t.pool.query('UPDATE entitlements SET revoked_at = now() WHERE user_id = $1', [ownerId]);
    expect((await owner.get(`/download/${alpha.id}`)).statusCode).toBe(403);
    await t.pool.query('UPDATE entitlements SET revoked_at = NULL WHERE user_id = $1', [ownerId]);
  });
});
