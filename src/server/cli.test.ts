import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded.ts';
import { migrateDatabase, openDatabase, openPool } from './db/open.ts';
import { recordServerOwnerEmails } from './modules/owner/owner.service.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** An owner command as `npm run -s <command> -- ...` runs it, with this environment; never throws. */
async function ownerCommand(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let dataDir: string;
let store: EmbeddedDatabase;

// The embedded cluster as `npm start` leaves it running in DATA_DIR, with a subscriber in it.
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-cli-'));
  store = await startEmbeddedPostgres(dataDir, { info: () => {}, error: () => {} }, { durable: false });
  const pool = openPool(store.url, { log: console, max: 1 });
  await migrateDatabase(pool);
  await pool.query(
    "INSERT INTO subscribers (email, token_hash, subscribed_at) VALUES ('reader@example.com', 'x', '2025-09-01T10:00:00Z')",
  );
  await pool.end();
}, 60_000);
afterAll(async () => {
  await store?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('owner commands while the store runs on the embedded database', () => {
  it('exports the subscribers into a file given as an argument, and the bare CSV on standard output', async () => {
    const file = path.join(dataDir, 'subscribers.csv');
    const toFile = await ownerCommand({ DATA_DIR: dataDir }, 'subscribers', 'export', file);
    expect(toFile).toMatchObject({ code: 0, stdout: '' });
    expect(toFile.stderr).toContain(`1 subscriber(s) written to ${file}`);
    const csv = 'email,subscribed_at\nreader@example.com,2025-09-01T10:00:00.000Z\n';
    expect(readFileSync(file, 'utf8')).toBe(csv);
    expect(await ownerCommand({ DATA_DIR: dataDir }, 'subscribers', 'export')).toMatchObject({ code: 0, stdout: csv });
  });

  it('lists messages and owners from the running store', async () => {
    expect(await ownerCommand({ DATA_DIR: dataDir }, 'messages', 'list')).toMatchObject({
      code: 0,
      stdout: 'No contact messages yet.\n',
    });
    expect((await ownerCommand({ DATA_DIR: dataDir }, 'owner', 'list')).stdout).toMatch(/^No owners yet/);
  });

  it('lists the OWNER_EMAILS the server started with, though its own environment has none', async () => {
    const pool = openPool(store.url, { log: console, max: 1 });
    try {
      // What a server started with OWNER_EMAILS=Boss@Shop.test,ops@shop.test writes.
      await recordServerOwnerEmails(openDatabase(pool), ['Boss@Shop.test', 'ops@shop.test']);
      const listed = await ownerCommand({ DATA_DIR: dataDir, OWNER_EMAILS: '' }, 'owner', 'list');
      expect(listed.code).toBe(0);
      expect(listed.stdout.trim().split('\n')).toEqual([
        expect.stringMatching(/^boss@shop\.test\s+OWNER_EMAILS\s+no verified account yet$/),
        expect.stringMatching(/^ops@shop\.test\s+OWNER_EMAILS\s+no verified account yet$/),
      ]);
      // The next start without one of them: it is gone from the list.
      await recordServerOwnerEmails(openDatabase(pool), ['boss@shop.test']);
      const after = await ownerCommand({ DATA_DIR: dataDir, OWNER_EMAILS: '' }, 'owner', 'list');
      expect(after.stdout).not.toContain('ops@shop.test');
      await recordServerOwnerEmails(openDatabase(pool), []);
      expect((await ownerCommand({ DATA_DIR: dataDir, OWNER_EMAILS: '' }, 'owner', 'list')).stdout).toMatch(
        /^No owners yet/,
      );
    } finally {
      await pool.end();
    }
  }, 60_000);

  it('creates, lists, pauses and resumes discount codes', async () => {
    const env = { DATA_DIR: dataDir };
    const created = await ownerCommand(env, 'discounts', 'create', 'Launch', '--percent', '25', '--max', '5', '--once');
    expect(created).toMatchObject({ code: 0 });
    expect(created.stdout).toMatch(/^Created Launch\s+25% off\s+0\/5 used\s+active\s+every kit\s+once per customer/);
    const duplicate = await ownerCommand(env, 'discounts', 'create', 'LAUNCH', '--amount', '5');
    expect(duplicate).toMatchObject({ code: 1, stdout: '' });
    expect(duplicate.stderr).toMatch(/exists already/);
    expect((await ownerCommand(env, 'discounts', 'pause', 'launch')).stdout).toBe('Launch is paused.\n');
    expect((await ownerCommand(env, 'discounts', 'list')).stdout).toMatch(/^Launch\s+25% off\s+0\/5 used\s+paused/);
    expect((await ownerCommand(env, 'discounts', 'resume', 'LAUNCH')).stdout).toBe('Launch is active.\n');
    // Five commands, each a process of its own: a busy 2-core machine took past the default 20 s.
  }, 60_000);

  it('names a code’s kits in its list as --kits takes them, not by their ids', async () => {
    const pool = openPool(store.url, { log: console, max: 1 });
    try {
      await pool.query(`INSERT INTO kits (sef_id, title, spot, features, price_cents, paddle_price_id, version, details,
                                          setup_html, docs, position, content_hash)
        VALUES ('go-api-kit', 'Go API Kit', 'x', '[]', 4900, 'pri_go', '1.0.0', '{}', '', '[]', 90, 'h')`);
      const env = { DATA_DIR: dataDir };
      const created = await ownerCommand(env, 'discounts', 'create', 'GoFast', '--amount', '5', '--kits', 'go-api-kit');
      expect(created.stdout).toMatch(/^Created GoFast\s.*\skits go-api-kit(\s|$)/);
      expect((await ownerCommand(env, 'discounts', 'list')).stdout).toMatch(/^GoFast\s.*\skits go-api-kit(\s|$)/m);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it('takes --starts and --ends as days in SHOP_TIME_ZONE and lists the last day a code works', async () => {
    const env = { DATA_DIR: dataDir, SHOP_TIME_ZONE: 'America/New_York' };
    const created = await ownerCommand(
      env,
      'discounts',
      'create',
      'Winter',
      '--percent',
      '10',
      '--starts',
      '2026-12-01',
      '--ends',
      '2026-12-02',
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.stdout).toMatch(/^Created Winter\s.*from 2026-12-01 {2}until 2026-12-02\n$/);
    const listed = (await ownerCommand(env, 'discounts', 'list')).stdout;
    expect(listed).toMatch(/^Winter\s.*from 2026-12-01 {2}until 2026-12-02$/m);
  }, 60_000);

  it('says in one line what to do when the database cannot be reached, without a stack trace', async () => {
    const failed = await ownerCommand({ DATABASE_URL: 'postgres://kitshop:x@127.0.0.1:1/kitshop' }, 'messages', 'list');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Cannot open the database at DATABASE_URL \(127\.0\.0\.1:1\): .*ECONNREFUSED.*DATABASE_URL/,
      ),
    ]);
    expect(failed.stderr).not.toContain('kitshop:x');
  });
});

describe('npm run backup and npm run restore on the embedded database', () => {
  it('backs up the running store and restores it into an empty DATA_DIR: rows, files and session secret', async () => {
    const archive = path.join(dataDir, 'files/private/archives/alpha/alpha-1.0.0.zip');
    mkdirSync(path.dirname(archive), { recursive: true });
    writeFileSync(archive, 'the archive bytes');
    writeFileSync(path.join(dataDir, 'session-secret'), 'generated-secret-of-the-store\n');
    const file = path.join(dataDir, 'shop.backup');
    const backup = await ownerCommand({ DATA_DIR: dataDir }, 'backup', file);
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(/^Backed up to .*shop\.backup: \d+ rows in \d+ tables, 1 files/);

    const restoredDir = path.join(dataDir, 'restored');
    const restore = await ownerCommand({ DATA_DIR: restoredDir }, 'restore', file);
    expect(restore.stderr + restore.stdout).not.toContain('rror');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored from .*: \d+ rows in \d+ tables, 1 files/);
    expect(readFileSync(path.join(restoredDir, 'files/private/archives/alpha/alpha-1.0.0.zip'), 'utf8')).toBe(
      'the archive bytes',
    );
    expect(readFileSync(path.join(restoredDir, 'session-secret'), 'utf8')).toBe('generated-secret-of-the-store\n');
    const exported = await ownerCommand({ DATA_DIR: restoredDir }, 'subscribers', 'export');
    expect(exported.stdout).toContain('reader@example.com,2025-09-01T10:00:00.000Z');
    // Restoring again into the filled DATA_DIR is refused, in one line.
    const again = await ownerCommand({ DATA_DIR: restoredDir }, 'restore', file);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('The database is not empty: restore into a new DATA_DIR or an empty database.');
  }, 60_000);
});
