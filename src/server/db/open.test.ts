import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/setup/test-app.ts';
import { openPool } from './open.ts';

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
});
