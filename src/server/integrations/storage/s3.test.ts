import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestS3, type TestS3 } from '../../../../tests/setup/s3.ts';
import { createS3Storage } from './s3.ts';
import { type RemoteStorage, SIGNED_URL_SECONDS } from './storage.ts';

let s3: TestS3;
let storage: RemoteStorage;

beforeAll(async () => {
  s3 = await startTestS3();
  storage = createS3Storage(settings());
});
afterAll(() => s3.stop());

const settings = () => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  region: 'us-east-1',
});
const bytes = (text: string) => new TextEncoder().encode(text);
const as = { filename: 'alpha-kit-1.0.0.zip', contentType: 'application/zip' };

describe('S3 storage', () => {
  it('stores an archive streamed from a file, reads it back as a stream and deletes it', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 's3-put-')), 'kit.tar.gz');
    writeFileSync(file, Buffer.alloc(300_000, 7));
    await storage.putPrivateFile('archives/beta/beta-2.0.0.tar.gz', file, 'application/gzip');
    const stream = await storage.readPrivateStream('archives/beta/beta-2.0.0.tar.gz');
    if (!stream) throw new Error('expected the object');
    let size = 0;
    for await (const chunk of stream) size += (chunk as Buffer).length;
    expect(size).toBe(300_000);
    await storage.deletePrivate('archives/beta/beta-2.0.0.tar.gz');
    expect(await storage.readPrivateStream('archives/beta/beta-2.0.0.tar.gz')).toBeNull();
    await storage.deletePrivate('archives/beta/never-there.zip');
  });

  it('hands a private object out by a signed link that names the file and expires within 5 minutes', async () => {
    await storage.putPrivate('archives/alpha/alpha-1.0.0.zip', bytes('first'));
    const download = await storage.privateDownload('archives/alpha/alpha-1.0.0.zip', as);
    if (download?.kind !== 'redirect') throw new Error('expected a signed redirect');
    const url = new URL(download.url);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    expect(download.expiresInSeconds).toBe(SIGNED_URL_SECONDS);
    const res = await fetch(download.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('first');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="alpha-kit-1.0.0.zip"');
    expect(res.headers.get('content-type')).toBe('application/zip');
    const part = await fetch(download.url, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('irs');
  });

  // s3rver checks a signed link's key id and expiry (it does not recompute SigV4 signatures).
  it('refuses expired links and unknown keys', async () => {
    const stranger = createS3Storage({ ...settings(), accessKeyId: 'NOT-A-KEY' });
    const refused = { $metadata: { httpStatusCode: 403 } };
    await expect(stranger.putPrivate('archives/x/x.zip', bytes('x'))).rejects.toMatchObject(refused);
    await expect(stranger.privateDownload('archives/alpha/alpha-1.0.0.zip', as)).rejects.toMatchObject(refused);

    // A link signed six minutes ago has expired.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 6 * 60_000 });
    const old = await storage.privateDownload('archives/alpha/alpha-1.0.0.zip', as);
    vi.useRealTimers();
    if (old?.kind !== 'redirect') throw new Error('expected a signed redirect');
    const expired = await fetch(old.url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });

  it('never overwrites a stored key, and reports a missing object as null', async () => {
    await storage.putPrivate('archives/alpha/alpha-1.0.0.zip', bytes('second'));
    const download = await storage.privateDownload('archives/alpha/alpha-1.0.0.zip', as);
    if (download?.kind !== 'redirect') throw new Error('expected a signed redirect');
    expect(await (await fetch(download.url)).text()).toBe('first');
    expect(await storage.privateDownload('archives/none/none-1.0.0.zip', as)).toBeNull();
    expect(await storage.readPublic('media/none.png')).toBeNull();
  });

  it('refuses keys that leave their area', async () => {
    await expect(storage.putPrivate('../public/x.png', bytes('x'))).rejects.toThrow('Invalid storage key');
    await expect(storage.privateDownload('a//b', as)).rejects.toThrow('Invalid storage key');
    expect(await storage.readPublic('../private/archives/alpha/alpha-1.0.0.zip')).toBeNull();
  });
});
