import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase, FIXTURE_CATALOG, PRODUCTION_ENV, TEST_TEMPLATE } from '../../tests/setup/test-app.ts';
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

/** Starts the real server on a test database and returns what it logged at warn level and above. */
async function warningsAtStart(env: Record<string, string>): Promise<string[]> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-start-'));
  const lines: string[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)).msg);
        done();
      },
    }),
  );
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    CATALOG_DIR: FIXTURE_CATALOG,
    PORT: '0',
    ...env,
  });
  try {
    const server = await startServer(config, { logger, template: () => TEST_TEMPLATE });
    await server.close();
    return lines;
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('start', () => {
  it('warns when a production shop takes sandbox payments', async () => {
    const warnings = await warningsAtStart({ ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'sandbox' });
    expect(warnings).toEqual([
      expect.stringMatching(/PAYMENT_PROVIDER=sandbox.*NODE_ENV=production.*no real charges/s),
    ]);
  });

  it('says nothing of it outside production', async () => {
    expect(await warningsAtStart({ PAYMENT_PROVIDER: 'sandbox' })).toEqual([]);
  });
});

describe('a start that fails', () => {
  it('stops what it started and reports at once: a port already in use', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-start-'));
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      CATALOG_DIR: FIXTURE_CATALOG,
      HOST: '127.0.0.1',
      PORT: String(port),
    });
    try {
      const began = performance.now();
      await expect(
        startServer(config, { logger: pino({ level: 'silent' }), template: () => TEST_TEMPLATE }),
      ).rejects.toThrow(/EADDRINUSE/);
      // Once the pool waited for the catalog listener's connection, which nothing released.
      expect(performance.now() - began).toBeLessThan(10_000);
      // No connection of the server's is left open: the catalog listener's held the pool's end.
      const { rows } = await database.pool.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      expect(rows[0].n).toBe(0);
    } finally {
      taken.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('housekeeping', () => {
  it('sweeps expired counters, ended sessions and spent links on a timer while the server runs', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-start-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      CATALOG_DIR: FIXTURE_CATALOG,
      PORT: '0',
    });
    const server = await startServer(
      { ...config, housekeepingIntervalMs: 50 },
      { logger: pino({ level: 'silent' }), template: () => TEST_TEMPLATE },
    );
    try {
      // Rows written after the start: only the timer's rounds can remove them.
      const { rows } = await database.pool.query(
        "INSERT INTO users (name, email, password_hash) VALUES ('Sweep', 'sweep@example.com', 'x') RETURNING id",
      );
      const userId = rows[0].id as number;
      await database.pool.query(
        `INSERT INTO rate_limits (key, count, reset_at) SELECT 'expired:' || i, 1, now() - interval '1 second' FROM generate_series(1, 600) i;
         INSERT INTO rate_limits (key, count, reset_at) VALUES ('live', 1, now() + interval '1 hour')`,
      );
      await database.pool.query(
        `INSERT INTO sessions (token_hash, user_id, expires_at, remember, last_seen_at) VALUES
           ('ended', $1, now() - interval '1 second', true, now()),
           ('idle', $1, now() + interval '1 hour', false, now() - interval '3 hours'),
           ('remembered', $1, now() + interval '1 day', true, now() - interval '3 hours'),
           ('live', $1, now() + interval '1 hour', false, now())`,
        [userId],
      );
      await database.pool.query(
        `INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at, used_at) VALUES
           ($1, 'reset', 'used', now() + interval '1 hour', now()),
           ($1, 'verify', 'expired', now() - interval '1 second', NULL),
           ($1, 'reset', 'live', now() + interval '1 hour', NULL)`,
        [userId],
      );
      const left = async () => ({
        counters: (await database.pool.query('SELECT key FROM rate_limits ORDER BY key')).rows.map((r) => r.key),
        sessions: (await database.pool.query('SELECT token_hash FROM sessions ORDER BY 1')).rows.map(
          (r) => r.token_hash,
        ),
        links: (await database.pool.query('SELECT token_hash FROM email_tokens ORDER BY 1')).rows.map(
          (r) => r.token_hash,
        ),
      });
      await vi.waitFor(async () => expect((await left()).counters).toEqual(['live']), {
        timeout: 10_000,
        interval: 50,
      });
      expect(await left()).toEqual({ counters: ['live'], sessions: ['live', 'remembered'], links: ['live'] });
    } finally {
      await server.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
