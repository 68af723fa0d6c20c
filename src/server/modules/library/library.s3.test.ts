import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient, signedInClient, signedInOwner } from '../../../../tests/setup/client.ts';
import { startTestS3, type TestS3 } from '../../../../tests/setup/s3.ts';
import { createTestApp, FIXTURE_CATALOG, type TestApp } from '../../../../tests/setup/test-app.ts';

// The whole shop on S3-compatible storage: the import uploads archives and screenshots to a real
// S3 server (s3rver), downloads answer with a signed redirect, media stream through the shop.
let s3: TestS3;
let t: TestApp;
let alpha: { id: number };
let owner: Client;
let ownerId: number;

beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', ...s3.env });
  const signedIn = await signedInOwner(t.app, t.pool, 'alpha-kit');
  alpha = signedIn.kit;
  ownerId = signedIn.user.id;
  owner = signedIn.client;
});
afterAll(async () => {
  await t.close();
  await s3.stop();
});

describe('downloads from S3-compatible storage', () => {
  it('redirects the owner to a signed link that expires within 5 minutes and serves the recorded archive', async () => {
    const res = await owner.get(`/download/${alpha.id}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = new URL(res.headers.location as string);
    expect(location.origin).toBe(s3.endpoint);
    expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="alpha-kit-1.1.0.zip"');
    const bytes = Buffer.from(await file.arrayBuffer());
    const { rows } = await t.pool.query('SELECT sha256, size_bytes FROM kit_versions WHERE kit_id = $1', [alpha.id]);
    expect(bytes.length).toBe(Number(rows[0].size_bytes));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(rows[0].sha256);

    const logged = await t.pool.query('SELECT kit_id FROM downloads WHERE user_id = $1', [ownerId]);
    expect(logged.rows).toEqual([{ kit_id: alpha.id }]);
  });

  it('still answers 401 signed out and 403 to another user, with no link', async () => {
    const anonymous = await (await createClient(t.app)).get(`/download/${alpha.id}`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers.location).toBeUndefined();
    const { client: stranger } = await signedInClient(t.app, t.pool);
    const refused = await stranger.get(`/download/${alpha.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
  });

  it('serves screenshots from the bucket with their type and a long cache, 404 for others', async () => {
    const [product] = (await t.pool.query("SELECT details FROM kits WHERE sef_id = 'alpha-kit'")).rows;
    const shot = product.details.screenshots[0].url as string;
    const res = await t.app.inject({ method: 'GET', url: `/${shot}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const source = readFileSync(path.join(FIXTURE_CATALOG, 'kits/alpha-kit/screenshots/dashboard.png'));
    expect(res.rawPayload.equals(source)).toBe(true);
    const missing = await t.app.inject({ method: 'GET', url: '/media/screenshots/alpha-kit/none.png' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'We could not find that file.' });
    expect((await t.app.inject({ method: 'GET', url: '/media/..%2Fprivate%2Fx.zip' })).statusCode).toBe(404);
  });
});
