import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/setup/test-app.ts';
import { openPool, warmPool } from './open.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('openPool', () => {
  it('logs an idle connection that its server ended, and connects anew for the next query', async () => {
    const logged: { err: unknown; msg: string }[] = [];
    let reported!: () => void;
    const report = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const pool = openPool(database.url, {
      max: 1,
      log: {
        warn: (obj, msg) => {
          logged.push({ err: obj.err, msg });
          reported();
        },
      },
    });
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await database.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await report;
      expect(logged).toHaveLength(1);
      expect(logged[0]!.msg).toBe('database: an idle connection failed and was dropped');
      expect(String(logged[0]!.err)).toContain('terminating connection');
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('opens the connections it keeps at start, all at once, and leaves them idle', async () => {
    const pool = openPool(database.url, { min: 3, log: { warn: () => {} } });
    try {
      await warmPool(pool, 3);
      expect([pool.totalCount, pool.idleCount]).toEqual([3, 3]);
      // The next queries use them: none is opened anew.
      await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1'), pool.query('SELECT 1')]);
      expect(pool.totalCount).toBe(3);
    } finally {
      await pool.end();
    }
  });
});
