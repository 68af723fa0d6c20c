import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PassThrough, Readable } from 'node:stream';
import pg from 'pg';
import semver from 'semver';
import { hashPassword } from '../../src/server/modules/accounts/passwords.ts';
import { makeTempDir, rssBytes } from './proc.ts';
import { visit } from './signin.ts';

/**
 * Kit versions on the built server: publishing a version to 10,000 buyers (the request, whose one
 * INSERT ... SELECT queues every update mail), and a 100 MB archive upload while the server's RSS
 * is sampled (the upload is streamed to a temporary file and checked from disk, never buffered).
 */

export const BUYERS = 10_000;
export const UPLOAD_BYTES = 100 * 1024 * 1024;
const PASSWORD = 'bench-versions-password-not-common-7';

export type KitVersionFigures = {
  publishMs: number;
  mailsQueued: number;
  distinctRecipients: number;
  uploadMs: number;
  uploadStatus: number;
  rssBeforeBytes: number;
  rssPeakBytes: number;
};

async function ownerSession(baseUrl: string, pool: pg.Pool) {
  const email = `versions-owner-${process.pid}@bench.example`;
  await pool.query(
    'INSERT INTO users (name, email, password_hash, email_verified_at) VALUES ($1, $2, $3, now()) ON CONFLICT DO NOTHING',
    ['Versions Owner', email, await hashPassword(PASSWORD)],
  );
  await pool.query('INSERT INTO owners (email) VALUES ($1) ON CONFLICT DO NOTHING', [email]);
  const browser = await visit(baseUrl);
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': browser.csrf, cookie: browser.cookie },
    body: JSON.stringify({ email, password: PASSWORD, remember: true }),
  });
  if (res.status !== 200) throw new Error(`owner sign-in answered ${res.status}`);
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie: `${browser.cookie}; ${session}`, csrf: browser.csrf };
}

/** A `<root>/...` tar.gz made by tar(1): one README, plus `extraBytes` of random data when asked. */
function makeArchive(dir: string, root: string, extraBytes: number): string {
  const tree = path.join(dir, `tree-${root}`);
  mkdirSync(path.join(tree, root), { recursive: true });
  execFileSync('sh', ['-c', `printf '# %s\\n' "$1" > "$2/README.md"`, 'sh', root, path.join(tree, root)]);
  if (extraBytes > 0)
    execFileSync('sh', ['-c', `head -c ${extraBytes} /dev/urandom > "$1/blob.bin"`, 'sh', path.join(tree, root)]);
  const file = path.join(dir, `${root}.tar.gz`);
  execFileSync('tar', ['-czf', file, '-C', tree, root]);
  return file;
}

/** POSTs the publishing form with the archive streamed from disk (chunked, as a browser streams a file). */
async function publish(
  baseUrl: string,
  session: { cookie: string; csrf: string },
  sefId: string,
  version: string,
  archive: string,
): Promise<Response> {
  const boundary = `----bench${randomUUID().replace(/-/g, '')}`;
  const fields = { idempotency_key: randomUUID(), version, notes: `## ${version}\n\n- Measured by the bench` };
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const body = new PassThrough();
  body.write(
    `${head}--${boundary}\r\nContent-Disposition: form-data; name="archive"; filename="${path.basename(archive)}"\r\nContent-Type: application/gzip\r\n\r\n`,
  );
  const file = createReadStream(archive);
  file.pipe(body, { end: false });
  file.on('end', () => body.end(`\r\n--${boundary}--\r\n`));
  return fetch(`${baseUrl}/api/admin/kits/${sefId}/versions`, {
    method: 'POST',
    headers: {
      cookie: session.cookie,
      'x-csrf-token': session.csrf,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body: Readable.toWeb(body) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
}

export async function measureKitVersions(
  baseUrl: string,
  databaseUrl: string,
  serverPid: number,
  log: (line: string) => void = () => {},
): Promise<KitVersionFigures> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const dir = makeTempDir('kitshop-bench-versions-');
  try {
    // The store's first kit; the versions published are the next major above any it had, and one more.
    const kit = (await pool.query('SELECT id, sef_id FROM kits ORDER BY position, id LIMIT 1')).rows[0] as {
      id: number;
      sef_id: string;
    };
    const kitId = kit.id;
    const KIT = kit.sef_id;
    const known = (await pool.query('SELECT version FROM kit_versions WHERE kit_id = $1', [kitId])).rows.map(
      (r) => r.version as string,
    );
    const first = semver.inc(semver.rsort(known)[0] ?? '0.0.0', 'major')!;
    const second = semver.inc(first, 'minor')!;
    log(`seeding ${BUYERS} buyers of ${KIT}`);
    await pool.query(
      `WITH made AS (
         INSERT INTO users (name, email, email_verified_at)
         SELECT 'Buyer ' || i, 'versions-buyer-' || i || '@bench.example', now() FROM generate_series(1, $1) i
         RETURNING id)
       INSERT INTO entitlements (user_id, kit_id, source) SELECT id, $2, 'grant' FROM made`,
      [BUYERS, kitId],
    );
    const session = await ownerSession(baseUrl, pool);

    const small = makeArchive(dir, `${KIT}-${first}`, 0);
    const started = performance.now();
    const res = await publish(baseUrl, session, KIT, first, small);
    const publishMs = performance.now() - started;
    if (res.status !== 200) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT lower("to"))::int AS distinct FROM mail_outbox
        WHERE ref = (SELECT 'kit-version:' || id FROM kit_versions WHERE kit_id = $1 AND version = $2)`,
      [kitId, first],
    );
    log(`published to ${rows[0].n} buyers in ${publishMs.toFixed(0)} ms`);

    log(`making a ${UPLOAD_BYTES / 1024 ** 2} MB archive`);
    const big = makeArchive(dir, `${KIT}-${second}`, UPLOAD_BYTES);
    const rssBeforeBytes = rssBytes(serverPid);
    let rssPeakBytes = rssBeforeBytes;
    const sampler = setInterval(() => {
      rssPeakBytes = Math.max(rssPeakBytes, rssBytes(serverPid));
    }, 20);
    const uploadStarted = performance.now();
    const upload = await publish(baseUrl, session, KIT, second, big);
    await upload.text();
    const uploadMs = performance.now() - uploadStarted;
    clearInterval(sampler);
    rssPeakBytes = Math.max(rssPeakBytes, rssBytes(serverPid));
    log(`uploaded ${(statSync(big).size / 1024 ** 2).toFixed(1)} MB in ${uploadMs.toFixed(0)} ms (${upload.status})`);
    return {
      publishMs,
      mailsQueued: rows[0].n,
      distinctRecipients: rows[0].distinct,
      uploadMs,
      uploadStatus: upload.status,
      rssBeforeBytes,
      rssPeakBytes,
    };
  } finally {
    await pool.end();
  }
}
