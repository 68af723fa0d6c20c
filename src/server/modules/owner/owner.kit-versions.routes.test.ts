import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import { type Client, signedInClient } from '../../../../tests/setup/client.ts';
import { kitTarGz, kitZip, multipartBody, publishVersion } from '../../../../tests/setup/kit-archives.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';

let t: TestApp;
let owner: Client;
let buyer: Client;
let kitId: number;
const SEF = 'alpha-kit';

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  kitId = (await t.pool.query("SELECT id FROM kits WHERE sef_id = 'alpha-kit'")).rows[0].id;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test', name: 'The Boss' }));
  const signedBuyer = await signedInClient(t.app, t.pool, { email: 'buyer@example.test' });
  buyer = signedBuyer.client;
  await grantKits(t.pool, signedBuyer.user.id, [kitId]);
  // A second buyer, and one whose kit was refunded (no mail for them).
  const second = await signedInClient(t.app, t.pool, { email: 'second@example.test' });
  await grantKits(t.pool, second.user.id, [kitId]);
  // One who turned update mails off.
  const quiet = await signedInClient(t.app, t.pool, { email: 'quiet@example.test' });
  await grantKits(t.pool, quiet.user.id, [kitId]);
  const optOut = await quiet.client.post('/api/library/update-mails', { enabled: false });
  expect(optOut.json()).toEqual({ update_mails: false });
  expect((await quiet.client.post('/api/item/alpha-kit/changelog', {})).json().update_mails).toBe(false);
  const refunded = await signedInClient(t.app, t.pool, { email: 'refunded@example.test' });
  await grantKits(t.pool, refunded.user.id, [kitId]);
  await t.pool.query('UPDATE entitlements SET revoked_at = now() WHERE user_id = $1', [refunded.user.id]);
});
afterAll(() => t.close());

const privateFiles = () => {
  const walk = (dir: string): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    } catch {
      return [];
    }
  };
  return walk(path.join(t.dataDir, 'files', 'private')).sort();
};
const versionRows = async () =>
  (await t.pool.query('SELECT version FROM kit_versions WHERE kit_id = $1 ORDER BY id', [kitId])).rows.map(
    (r) => r.version,
  );

const V12 = {
  'README.md': '# Alpha kit\n\nVersion 1.2.0.\n',
  'src/app.ts': 'export const version = "1.2.0";\nexport function hello() {\n  return "hello";\n}\n',
  'src/old.ts': 'export const legacy = true;\n',
  'no-newline.txt': 'first\nlast line without newline',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]),
  'bin/setup.sh': { body: '#!/bin/sh\necho setup\n', mode: 0o755 },
};
const V13 = {
  'README.md': '# Alpha kit\n\nVersion 1.3.0, with a new section.\n\n## Upgrading\n\nApply the patch.\n',
  'src/app.ts':
    'export const version = "1.3.0";\nexport function hello(name = "you") {\n  return "hello " + name;\n}\n',
  'src/new feature.ts': 'export const feature = "fresh";\n',
  'no-newline.txt': 'first\nlast line changed, still without newline',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 9, 9, 9]),
  'bin/setup.sh': { body: '#!/bin/sh\necho setup 1.3\n', mode: 0o755 },
  'empty.txt': '',
};

describe('publishing a version', () => {
  it('refuses bad archives with a message and leaves no trace in storage or the database', async () => {
    const before = privateFiles();
    const cases: [string, string, Buffer, RegExp][] = [
      ['1.2.0', 'evil.zip', kitZip('alpha-kit-1.2.0', { '../../evil.sh': 'x' }), /outside/],
      ['1.2.0', 'wrong.zip', kitZip('alpha-kit', { 'README.md': 'x' }), /one folder named alpha-kit-1\.2\.0\//],
      ['1.2.0', 'junk.tar.gz', Buffer.from('not gzip'), /not a readable \.tar\.gz/],
      ['1.2.0', 'notes.txt', Buffer.from('x'), /\.zip or \.tar\.gz/],
      ['1.0.9', 'ok.zip', kitZip('alpha-kit-1.0.9', { a: 'x' }), /greater than the latest, 1\.1\.0/],
      ['1.1.0', 'ok.zip', kitZip('alpha-kit-1.1.0', { a: 'x' }), /already published/],
      ['one', 'ok.zip', kitZip('alpha-kit-one', { a: 'x' }), /semantic version/],
    ];
    for (const [version, filename, bytes, message] of cases) {
      const res = await publishVersion(t.app, owner, SEF, { version, notes: 'Notes', filename, bytes });
      expect(res.statusCode, `${filename} ${version}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().message).toMatch(message);
    }
    const noNotes = await publishVersion(t.app, owner, SEF, {
      version: '1.2.0',
      notes: '  ',
      filename: 'ok.zip',
      bytes: kitZip('alpha-kit-1.2.0', V12),
    });
    expect(noNotes.json().message).toMatch(/^notes:/);
    // A form cut short mid-file (the browser went away).
    const cut = multipartBody(
      { idempotency_key: 'cut-short-1', version: '1.2.0', notes: 'x' },
      { name: 'archive', filename: 'a.zip', bytes: kitZip('alpha-kit-1.2.0', V12) },
    );
    const interrupted = await t.app.inject({
      method: 'POST',
      url: `/api/admin/kits/${SEF}/versions`,
      headers: {
        cookie: [...owner.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': owner.csrf,
        'content-type': cut.contentType,
      },
      payload: cut.payload.subarray(0, cut.payload.length - 200),
    });
    expect(interrupted.statusCode).toBe(400);
    expect(interrupted.json().message).toMatch(/interrupted/);
    expect(privateFiles()).toEqual(before);
    expect(await versionRows()).toEqual(['1.1.0']);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM mail_outbox')).rows[0].n).toBe(0);
  });

  it('publishes once under a double click, mails each active buyer who wants it once, and the store shows it', async () => {
    const bytes = kitZip('alpha-kit-1.2.0', V12);
    const input = {
      version: '1.2.0',
      notes: '## Changes\n\n- Faster <script>alert(1)</script> builds',
      key: 'double-click-1',
      filename: 'alpha.zip',
      bytes,
    };
    const [a, b] = await Promise.all([
      publishVersion(t.app, owner, SEF, input),
      publishVersion(t.app, owner, SEF, input),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.json().created, b.json().created].sort()).toEqual([false, true]);
    const again = await publishVersion(t.app, owner, SEF, input);
    expect(again.json().created).toBe(false);
    expect(await versionRows()).toEqual(['1.1.0', '1.2.0']);
    const listed = (await owner.get(`/api/admin/kits/${SEF}/versions`)).json();
    expect(listed.versions[0]).toMatchObject({ version: '1.2.0', size: bytes.length, downloads: 0, yanked_at: null });
    expect(listed.versions[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    const mails = (
      await t.pool.query('SELECT "to", text, html FROM mail_outbox WHERE ref LIKE \'kit-version:%\' ORDER BY "to"')
    ).rows;
    expect(mails.map((m) => m.to)).toEqual(['buyer@example.test', 'second@example.test']);
    expect(mails[0].text).toContain('• Faster');
    expect(mails[0].text).toContain('http://shop.test/user-panel/item/alpha-kit#changelog');
    expect(mails[0].text).toContain('#upgrade-patch');
    expect(mails[0].html).not.toContain('<script>');
    const product = (await buyer.post(`/api/product/${SEF}`, {})).json();
    expect(product.version).toBe('1.2.0');
    const notes = (await t.pool.query("SELECT notes_html FROM kit_versions WHERE version = '1.2.0'")).rows[0]
      .notes_html;
    expect(notes).toContain('<h2');
    expect(notes).not.toContain('<script>');
    const activity = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    expect(activity).toMatchObject({
      action: 'publish version',
      detail: 'Alpha Kit 1.2.0 published from an uploaded archive',
    });
  });
});

describe('buyers: changelog, versions and the upgrade patch', () => {
  it('downloads a chosen version, then gets a patch that git apply and patch -p1 take to the new version', async () => {
    const old = await buyer.get(`/download/${kitId}/versions/1.2.0`);
    expect(old.statusCode).toBe(200);
    expect(old.headers['content-disposition']).toContain('alpha-kit-1.2.0.zip');
    const published = await publishVersion(t.app, owner, SEF, {
      version: '1.3.0',
      notes: 'Greets by name.',
      filename: 'alpha-kit-1.3.0.tar.gz',
      bytes: await kitTarGz('alpha-kit-1.3.0', V13),
    });
    expect(published.statusCode).toBe(200);

    const changelog = (await buyer.post(`/api/item/${SEF}/changelog`, {})).json();
    expect(changelog.latest).toBe('1.3.0');
    expect(changelog.versions.map((v: { version: string; downloaded: boolean }) => [v.version, v.downloaded])).toEqual([
      ['1.3.0', false],
      ['1.2.0', true],
      ['1.1.0', false],
    ]);
    expect(changelog.patches).toEqual([{ from: '1.2.0', to: '1.3.0', download: `/download/${kitId}/upgrade/1.2.0` }]);

    // Two requests at once make the patch once.
    const [first, second] = await Promise.all([
      buyer.get(changelog.patches[0].download),
      buyer.get(changelog.patches[0].download),
    ]);
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM upgrade_patches')).rows[0].n).toBe(1);
    const patch = first.body;
    expect(patch).toContain('diff --git a/src/app.ts b/src/app.ts');
    expect(patch).toMatch(/#\s+logo\.png \(changed, binary\)/);
    expect(patch).not.toContain('diff --git a/logo.png');

    for (const tool of ['git', 'patch'] as const) {
      const dir = mkdtempSync(path.join(tmpdir(), `upgrade-${tool}-`));
      for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(old.rawPayload)))) {
        const target = path.join(dir, name);
        mkdirSync(path.dirname(target), { recursive: true });
        if (!name.endsWith('/')) writeFileSync(target, bytes);
      }
      const root = path.join(dir, 'alpha-kit-1.2.0');
      writeFileSync(path.join(dir, 'upgrade.patch'), patch);
      if (tool === 'git') execFileSync('git', ['apply', '../upgrade.patch'], { cwd: root });
      else execFileSync('patch', ['-p1', '-s', '-i', '../upgrade.patch'], { cwd: root });
      for (const [name, value] of Object.entries(V13)) {
        if (value instanceof Uint8Array) continue; // binary: listed, copied by hand
        const expected = typeof value === 'string' ? value : value.body;
        expect(readFileSync(path.join(root, name), 'utf8'), `${tool}: ${name}`).toBe(expected);
      }
      expect(() => readFileSync(path.join(root, 'src/old.ts')), `${tool} removes src/old.ts`).toThrow();
    }
  });

  it('refuses a patch from a version the buyer never downloaded, and a kit they do not own', async () => {
    expect((await buyer.get(`/download/${kitId}/upgrade/1.1.0`)).statusCode).toBe(403);
    const { client: stranger } = await signedInClient(t.app, t.pool);
    expect((await stranger.post(`/api/item/${SEF}/changelog`, {})).statusCode).toBe(403);
    expect((await stranger.get(`/download/${kitId}/versions/1.2.0`)).statusCode).toBe(403);
  });

  it('yank: hidden from new downloads, the reason shown, the newest remaining version served', async () => {
    const res = await owner.post(`/api/admin/kits/${SEF}/versions/1.3.0/yank`, { reason: 'Breaks sign-in on Safari' });
    expect(res.statusCode).toBe(200);
    expect(res.json().versions[0]).toMatchObject({ version: '1.3.0', yank_reason: 'Breaks sign-in on Safari' });
    const refused = await buyer.get(`/download/${kitId}/versions/1.3.0`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toContain('Breaks sign-in on Safari');
    const newest = await buyer.get(`/download/${kitId}`);
    expect(newest.headers['content-disposition']).toContain('alpha-kit-1.2.0.zip');
    const changelog = (await buyer.post(`/api/item/${SEF}/changelog`, {})).json();
    expect(changelog.latest).toBe('1.2.0');
    expect(changelog.versions[0]).toMatchObject({
      version: '1.3.0',
      yanked: true,
      download: null,
      yank_reason: 'Breaks sign-in on Safari',
    });
    expect((await buyer.post(`/api/product/${SEF}`, {})).json().version).toBe('1.2.0');
    const missing = await owner.post(`/api/admin/kits/${SEF}/versions/9.9.9/yank`, { reason: 'x' });
    expect(missing.statusCode).toBe(404);
    const noReason = await owner.post(`/api/admin/kits/${SEF}/versions/1.2.0/yank`, { reason: '' });
    expect(noReason.statusCode).toBe(422);
  });

  it('is the owners’ alone', async () => {
    expect((await buyer.get(`/api/admin/kits/${SEF}/versions`)).statusCode).toBe(403);
    const res = await publishVersion(t.app, buyer, SEF, {
      version: '2.0.0',
      notes: 'x',
      filename: 'a.zip',
      bytes: kitZip('alpha-kit-2.0.0', { a: 'b' }),
    });
    expect(res.statusCode).toBe(403);
  });
});
