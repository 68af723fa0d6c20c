import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import { type Client, signedInClient } from '../../../../tests/setup/client.ts';
import { type GithubStandIn, startGithubStandIn } from '../../../../tests/setup/github-stand-in.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';

const REPO = 'kitshop-test/alpha-kit';
const settings = { token: 'ghp_release_token', clientId: 'Iv1.release', clientSecret: 'release-secret' };

let gh: GithubStandIn;
let t: TestApp;
let owner: Client;

beforeAll(async () => {
  gh = await startGithubStandIn({ ...settings, repositories: [REPO] });
  t = await createTestApp({
    PUBLIC_URL: 'http://shop.test',
    OWNER_EMAILS: 'boss@shop.test',
    GITHUB_TOKEN: settings.token,
    GITHUB_CLIENT_ID: settings.clientId,
    GITHUB_CLIENT_SECRET: settings.clientSecret,
    GITHUB_API_URL: gh.apiUrl,
    GITHUB_WEB_URL: gh.webUrl,
  });
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test' }));
  const buyer = await signedInClient(t.app, t.pool, { email: 'reader@example.test' });
  const kitId = (await t.pool.query("SELECT id FROM kits WHERE sef_id = 'alpha-kit'")).rows[0].id;
  await grantKits(t.pool, buyer.user.id, [kitId]);
  await gh.addRelease(REPO, { tag: 'v1.0.0', body: 'Old.', files: { 'README.md': 'old\n' } });
  await gh.addRelease(REPO, {
    tag: 'v1.2.0',
    name: 'Spring release',
    body: '## Added\n\n- Teams',
    files: { 'README.md': '# Alpha 1.2.0\n', 'src/teams.ts': 'export const teams = [];\n' },
  });
  await gh.addRelease(REPO, { tag: 'nightly', files: { 'README.md': 'x' } });
  await gh.addRelease(REPO, { tag: 'v1.3.0', files: { 'README.md': 'x' }, draft: true });
});
afterAll(async () => {
  await t.close();
  await gh.close();
});

describe('Import Release', () => {
  it('lists the repository’s releases with the version each would publish, drafts left out', async () => {
    const res = await owner.get('/api/admin/kits/alpha-kit/github-releases');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({ tag: 'nightly', version: null, problem: 'its tag is not a semantic version' }),
      expect.objectContaining({ tag: 'v1.2.0', name: 'Spring release', version: '1.2.0', problem: null }),
      expect.objectContaining({ tag: 'v1.0.0', version: '1.0.0', problem: 'must be greater than the latest, 1.1.0.' }),
    ]);
    expect((await owner.get('/api/admin/kits/alpha-kit/versions')).json().github_releases).toBe(true);
    // beta-kit has no repository.
    expect((await owner.get('/api/admin/kits/beta-kit/github-releases')).statusCode).toBe(404);
  });

  it('publishes the chosen release: tag as version, body as notes, the tarball re-packed under the kit’s folder', async () => {
    const res = await owner.post('/api/admin/kits/alpha-kit/github-releases', {
      tag: 'v1.2.0',
      idempotency_key: 'release-import-1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ created: true, version: '1.2.0' });
    const [row] = (await t.pool.query("SELECT changelog, notes_html, format FROM kit_versions WHERE version = '1.2.0'"))
      .rows;
    expect(row).toMatchObject({ changelog: '## Added\n\n- Teams', format: 'tar.gz' });
    expect(row.notes_html).toContain('<li>Teams</li>');
    // The archive unpacks into alpha-kit-1.2.0/ (GitHub's kitshop-test-alpha-kit-<sha>/ renamed).
    const buyer = await signedInClient(t.app, t.pool, { email: 'fresh@example.test' });
    const kitId = (await t.pool.query("SELECT id FROM kits WHERE sef_id = 'alpha-kit'")).rows[0].id;
    await grantKits(t.pool, buyer.user.id, [kitId]);
    const download = await buyer.client.get(`/download/${kitId}/versions/1.2.0`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('alpha-kit-1.2.0.tar.gz');
    const { execFileSync } = await import('node:child_process');
    const listing = execFileSync('tar', ['-tz'], { input: download.rawPayload }).toString().split('\n').filter(Boolean);
    expect(listing.sort()).toEqual(['alpha-kit-1.2.0/', 'alpha-kit-1.2.0/README.md', 'alpha-kit-1.2.0/src/teams.ts']);
    const mails = (await t.pool.query('SELECT "to" FROM mail_outbox WHERE ref LIKE \'kit-version:%\'')).rows;
    expect(mails.map((m) => m.to)).toEqual(['reader@example.test']);
    // The same click again publishes nothing new.
    const again = await owner.post('/api/admin/kits/alpha-kit/github-releases', {
      tag: 'v1.2.0',
      idempotency_key: 'release-import-1',
    });
    expect(again.json()).toMatchObject({ created: false, version: '1.2.0' });
    expect(gh.problems()).toEqual([]);
  });

  it('refuses a tag that is no version, an unknown tag, and a release GitHub fails to serve, leaving nothing', async () => {
    const before = (await t.pool.query('SELECT count(*)::int AS n FROM kit_versions')).rows[0].n;
    const nightly = await owner.post('/api/admin/kits/alpha-kit/github-releases', {
      tag: 'nightly',
      idempotency_key: 'release-import-2',
    });
    expect(nightly.statusCode).toBe(422);
    expect(nightly.json().message).toMatch(/not a semantic version/);
    const unknown = await owner.post('/api/admin/kits/alpha-kit/github-releases', {
      tag: 'v9.9.9',
      idempotency_key: 'release-import-3',
    });
    expect(unknown.statusCode).toBe(404);
    await gh.addRelease(REPO, { tag: 'v1.4.0', files: { 'README.md': 'x' } });
    gh.failNext({ path: '/tarball/', status: 502 });
    const failed = await owner.post('/api/admin/kits/alpha-kit/github-releases', {
      tag: 'v1.4.0',
      idempotency_key: 'release-import-4',
    });
    expect(failed.statusCode).toBe(409);
    expect(failed.json().message).toMatch(/GitHub answered 502/);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM kit_versions')).rows[0].n).toBe(before);
  });
});
