import { createHash } from 'node:crypto';
import { promises as fs, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../tests/setup/s3.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../tests/setup/test-app.ts';
import { restoreBackup, writeBackup } from './backup.ts';
import { createLocalStorage, openStorage, type Storage } from './integrations/storage/storage.ts';
import { seedDemoSales } from './seed.ts';

let t: TestApp;
let tmp: string;
let s3: TestS3;
const FACTS = [
  'users',
  'orders',
  'order_items',
  'entitlements',
  'kit_versions',
  'downloads',
  'owner_activity',
  'subscribers',
  'kit_counts',
  'account_days',
  'subscriber_list_version',
];

async function facts(pool: { query: (q: string) => Promise<{ rows: unknown[] }> }) {
  const out: Record<string, unknown[]> = {};
  for (const table of FACTS) out[table] = (await pool.query(`SELECT * FROM ${table} t ORDER BY t::text`)).rows;
  return out;
}

/** Every archive named by the database, read back from storage and hashed. */
async function archiveHashes(pool: TestApp['pool'], storage: Storage) {
  const { rows } = await pool.query<{ storage_key: string; sha256: string }>(
    'SELECT storage_key, sha256 FROM kit_versions ORDER BY id',
  );
  expect(rows.length).toBeGreaterThan(0);
  return Promise.all(
    rows.map(async (r) => {
      const bytes = await storage.readObject('private', r.storage_key);
      return { key: r.storage_key, expected: r.sha256, actual: createHash('sha256').update(bytes!).digest('hex') };
    }),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-backup-'));
  await seedDemoSales(t.pool, { customers: 60, orders: 150 });
  // The append-only activity log (a trigger refuses UPDATE and DELETE) restores too.
  await t.pool.query(
    `INSERT INTO owner_activity (actor_id, actor, action, target, detail) VALUES (1, 'owner@shop.test', 'grant', 'customer 2', 'kit 1')`,
  );
  s3 = await startTestS3('kitshop-restore');
}, 60_000);
afterAll(async () => {
  await t.close();
  await s3.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('restores the same users, orders, entitlements and archives (by SHA-256) into an empty database', async () => {
    const file = path.join(tmp, 'shop.backup');
    const storage = await openStorage(t.config);
    const made = await writeBackup(t.pool, storage, file, { sessionSecret: 'the-generated-secret' });
    expect(made.tables.users).toBe(60);
    expect(made.tables.orders).toBe(150);
    expect(made.objects).toBeGreaterThan(0);

    const target = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmp, 'data-'));
    const restoredStorage = createLocalStorage(dataDir);
    let secret = '';
    try {
      const restored = await restoreBackup(target.pool, restoredStorage, file, {
        writeSessionSecret: async (s) => {
          secret = s;
        },
      });
      expect(restored).toEqual(made);
      expect(secret).toBe('the-generated-secret');
      expect(await facts(target.pool)).toEqual(await facts(t.pool));
      for (const archive of await archiveHashes(target.pool, restoredStorage))
        expect(archive.actual).toBe(archive.expected);
      // New rows continue after the restored ones.
      const next = await target.pool.query(
        `INSERT INTO users (email, name, password_hash) VALUES ('new@shop.test', 'New', 'x') RETURNING id`,
      );
      expect(next.rows[0].id).toBeGreaterThan(
        Math.max(...(await facts(t.pool)).users!.map((u) => (u as { id: number }).id)),
      );
      // A second restore into the now filled database is refused and changes nothing.
      await expect(restoreBackup(target.pool, restoredStorage, file)).rejects.toThrow(/not empty/);
    } finally {
      await target.drop();
    }
  });

  it('restores the files into an S3 bucket, and refuses a cut-off or damaged backup', async () => {
    const file = path.join(tmp, 'to-s3.backup');
    await writeBackup(t.pool, await openStorage(t.config), file);
    const target = await createTestDatabase();
    try {
      const bucket = await openStorage({ dataDir: tmp, s3: { ...s3Settings() } });
      await restoreBackup(target.pool, bucket, file);
      for (const archive of await archiveHashes(target.pool, bucket)) expect(archive.actual).toBe(archive.expected);
    } finally {
      await target.drop();
    }

    const lines = zlib.gunzipSync(readFileSync(file)).toString().trimEnd().split('\n');
    const cut = path.join(tmp, 'cut.backup');
    writeFileSync(cut, zlib.gzipSync(`${lines.slice(0, -1).join('\n')}\n`));
    const damaged = path.join(tmp, 'damaged.backup');
    const chunk = lines.findIndex((l) => l.startsWith('{"chunk"'));
    lines[chunk] = JSON.stringify({ chunk: Buffer.from('not the archive').toString('base64') });
    writeFileSync(damaged, zlib.gzipSync(`${lines.join('\n')}\n`));
    const other = path.join(tmp, 'other.backup');
    await fs.writeFile(other, 'plain text');
    for (const [bad, message] of [
      [cut, /incomplete/],
      [damaged, /damaged/],
      [other, /not a readable backup|not a Kitshop backup/],
    ] as const) {
      const empty = await createTestDatabase();
      try {
        await expect(
          restoreBackup(empty.pool, createLocalStorage(mkdtempSync(path.join(tmp, 'x-'))), bad),
        ).rejects.toThrow(message);
        expect((await empty.pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(0);
      } finally {
        await empty.drop();
      }
    }
  });
});

function s3Settings() {
  return {
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
  };
}
