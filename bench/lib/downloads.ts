import { createHash, randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { hashPassword } from '../../src/server/modules/accounts/passwords.ts';
import { rssBytes } from './proc.ts';
import { visit } from './signin.ts';

export const ARCHIVE_BYTES = 200 * 1000 * 1000;
export const CONCURRENT = 10;
const PASSWORD = 'bench-download-password-42';

export type DownloadFigures = {
  /** One download on its own, bytes per second (best of 3). */
  singleBytesPerSecond: number;
  singleRuns: number[];
  /** 10 at once: the whole batch's bytes per second, and the server's RSS growth while they ran. */
  concurrentBytesPerSecond: number;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  failures: number;
};

/** Writes `bytes` of random data (incompressible, like a real archive) and returns its SHA-256. */
function writeRandomFile(file: string, bytes: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < bytes; ) {
      const size = Math.min(chunk.length, bytes - written);
      randomFillSync(chunk, 0, size);
      writeSync(fd, chunk, 0, size);
      hash.update(chunk.subarray(0, size));
      written += size;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** GETs the URL and reads the body to the end without keeping it; the byte count. */
async function drain(url: string, cookie: string): Promise<number> {
  const res = await fetch(url, { headers: { cookie } });
  if (res.status !== 200 || !res.body) throw new Error(`GET ${url} → ${res.status}`);
  let total = 0;
  for await (const part of res.body) total += part.byteLength;
  return total;
}

/**
 * A 200 MB archive becomes the newest version of a kit a signed-in buyer owns (in the server's
 * local storage), then: one download at a time (3 runs), and 10 at once while the server's RSS is
 * sampled every 20 ms.
 */
export async function measureDownloads(
  server: { url: string; pid: number; dataDir: string },
  databaseUrl: string,
): Promise<DownloadFigures> {
  const { url: baseUrl, pid, dataDir } = server;
  const key = `archives/bench/bench-${process.pid}.zip`;
  const file = path.join(dataDir, 'files', 'private', key);
  const sha256 = writeRandomFile(file, ARCHIVE_BYTES);
  const email = `bench-download-${process.pid}@example.com`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let kitId: number;
  try {
    const { rows: kits } = await db.query('SELECT id FROM kits WHERE active ORDER BY position LIMIT 1');
    kitId = kits[0].id;
    await db.query(
      `INSERT INTO kit_versions (kit_id, version, released_on, changelog, storage_key, size_bytes, sha256, created_at)
       VALUES ($1, '99.0.0', '2026-11-22', 'Bench archive', $2, $3, $4, now() + interval '1 day')`,
      [kitId, key, ARCHIVE_BYTES, sha256],
    );
    const { rows: users } = await db.query(
      `INSERT INTO users (name, email, password_hash, email_verified_at) VALUES ('Bench buyer', $1, $2, now()) RETURNING id`,
      [email, await hashPassword(PASSWORD)],
    );
    await db.query("INSERT INTO entitlements (user_id, kit_id, source) VALUES ($1, $2, 'grant')", [users[0].id, kitId]);
  } finally {
    await db.end();
  }
  try {
    const browser = await visit(baseUrl);
    const login = await fetch(`${baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': browser.csrf, cookie: browser.cookie },
      body: JSON.stringify({ email, password: PASSWORD, remember: false }),
    });
    if (login.status !== 200) throw new Error(`sign-in → ${login.status}`);
    const session = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const cookie = `${browser.cookie}; ${session}`;
    const url = `${baseUrl}/download/${kitId}`;

    const singleRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const bytes = await drain(url, cookie);
      if (bytes !== ARCHIVE_BYTES) throw new Error(`download ended after ${bytes} bytes`);
      singleRuns.push(bytes / ((performance.now() - started) / 1000));
    }

    // The server's resting RSS: the median of 1 s of samples.
    const resting: number[] = [];
    for (let i = 0; i < 20; i++) {
      resting.push(rssBytes(pid));
      await new Promise((r) => setTimeout(r, 50));
    }
    resting.sort((a, b) => a - b);
    const rssBeforeBytes = resting[10]!;
    let rssPeakBytes = rssBeforeBytes;
    const sampler = setInterval(() => {
      rssPeakBytes = Math.max(rssPeakBytes, rssBytes(pid));
    }, 20);
    const started = performance.now();
    const results = await Promise.allSettled(Array.from({ length: CONCURRENT }, () => drain(url, cookie)));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    rssPeakBytes = Math.max(rssPeakBytes, rssBytes(pid));
    const failures = results.filter((r) => r.status === 'rejected' || r.value !== ARCHIVE_BYTES).length;
    return {
      singleBytesPerSecond: Math.max(...singleRuns),
      singleRuns,
      concurrentBytesPerSecond: (ARCHIVE_BYTES * (CONCURRENT - failures)) / seconds,
      rssBeforeBytes,
      rssPeakBytes,
      failures,
    };
  } finally {
    rmSync(file, { force: true });
  }
}
