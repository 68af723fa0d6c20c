import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** What a plain SQL read (or write) needs: the pool, or a transaction. */
export type Reader = Pick<Database, 'execute'>;

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url));
/** Any fixed number: every instance takes the same lock, so only one migrates at a time. */
const MIGRATION_LOCK = 7_318_220_914;

/** Where the pool reports trouble (the server's pino logger fits). */
export type PoolLog = { warn: (obj: { err: unknown }, msg: string) => void };

export function openPool(url: string, options: { log: PoolLog; max?: number; min?: number }): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    // Connections beyond `min` close after 30 s idle; `min` stay open for the next burst.
    min: options.min ?? 0,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server (a restart, a fail-over, a killed backend) must not crash
  // the process: the pool drops it and the next query connects anew. It is logged, not swallowed,
  // so a database that keeps dropping connections shows in the log. Once the pool is ending, its
  // connections are closing anyway (pool.end() resolves before their sockets have): not worth a line.
  pool.on('error', (err) => {
    if (!pool.ending) options.log.warn({ err }, 'database: an idle connection failed and was dropped');
  });
  return pool;
}

/**
 * Opens `count` connections at once and puts them back idle, so the first requests after start (a
 * burst of payment webhooks, say) find them open instead of each waiting for its own.
 */
export async function warmPool(pool: pg.Pool, count: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  for (const client of clients) client.release();
}

export function openDatabase(pool: pg.Pool): Database {
  return drizzle({ client: pool, schema }) as Database;
}

/** The committed migrations, oldest first: `when` is what drizzle records as a migration's `created_at`. */
export function migrationJournal(): { tag: string; when: number }[] {
  return JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')).entries;
}

/**
 * Applies committed migrations under a PostgreSQL advisory lock, so many instances can start at once.
 * `upTo`: only the first that many (a restore loads a backup into the schema it was made with).
 */
export async function migrateDatabase(pool: pg.Pool, options: { upTo?: number } = {}): Promise<void> {
  let folder = MIGRATIONS;
  if (options.upTo !== undefined) {
    folder = mkdtempSync(path.join(os.tmpdir(), 'kitshop-migrations-'));
    cpSync(MIGRATIONS, folder, { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8'));
    journal.entries = journal.entries.slice(0, options.upTo);
    writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  }
  try {
    await withAdvisoryLock(pool, MIGRATION_LOCK, (client) =>
      migrate(drizzle({ client }), { migrationsFolder: folder }),
    );
  } finally {
    if (folder !== MIGRATIONS) rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs `work` holding a session-level advisory lock: processes asking for the same `key` take turns. */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  key: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    try {
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    client.release();
  }
}

/** Whether a query failed with this SQLSTATE, whether or not Drizzle wrapped the error. */
function failedWith(error: unknown, sqlState: string): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (e.code === sqlState) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Whether a query failed on a unique index (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => failedWith(error, '23505');

/** Whether a write referred to a row that is gone (SQLSTATE 23503): deleted by another transaction meanwhile. */
export const isForeignKeyViolation = (error: unknown): boolean => failedWith(error, '23503');
