import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { addDays, today } from '../../lib/days.ts';
import { seedDemoSales } from '../../seed.ts';
import { countNewAccounts } from './accounts.owner.service.ts';
import { eraseAccount, sweepUnverifiedAccounts } from './accounts.privacy.service.ts';

/**
 * account_days is kept by triggers on users (migration 0013): whatever adds, removes or moves
 * accounts, the owner's new-customers figure must equal counting the accounts of each UTC day.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // 18 months of sign-ups (8% never verified), in one bulk insert.
  await seedDemoSales(t.pool, { customers: 400, orders: 50 });
}, 60_000);
afterAll(() => t.close());

/** The accounts of each UTC day, counted from users, against account_days (days left at 0 aside). */
async function expectDaysTrue() {
  const { rows: truth } = await t.pool.query<{ day: string; n: number }>(`
    SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS n FROM users GROUP BY 1 ORDER BY 1`);
  const { rows: kept } = await t.pool.query<{ day: string; n: number }>(
    'SELECT day::text AS day, accounts AS n FROM account_days WHERE accounts <> 0 ORDER BY day',
  );
  expect(kept).toEqual(truth);
  return truth;
}

/** countNewAccounts over [from, to] (UTC days) against a direct count. */
async function expectRangeTrue(from: string, to: string) {
  const { rows } = await t.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users
      WHERE created_at >= ($1::date::timestamp AT TIME ZONE 'UTC') AND created_at < ($2::date::timestamp AT TIME ZONE 'UTC')`,
    [from, addDays(to, 1)],
  );
  expect(await countNewAccounts(t.db, from, addDays(to, 1))).toBe(rows[0]!.n);
  return rows[0]!.n;
}

let made = 0;
const newUser = async (createdAt?: string, verified = true) => {
  const { rows } = await t.pool.query<{ id: number }>(
    `INSERT INTO users (name, email, password_hash, email_verified_at, created_at)
     VALUES ('Counted', $1, 'x', CASE WHEN $2 THEN now() END, COALESCE($3::timestamptz, now())) RETURNING id`,
    [`counted-${++made}@example.com`, verified, createdAt ?? null],
  );
  return rows[0]!.id;
};

describe('account_days', () => {
  it('holds the seeded accounts per UTC day, and sums any range like counting them', async () => {
    const days = await expectDaysTrue();
    expect(days.length).toBeGreaterThan(100);
    const to = today();
    expect(await expectRangeTrue(addDays(to, -364), to)).toBeGreaterThan(100);
    await expectRangeTrue(addDays(to, -29), to);
    await expectRangeTrue(to, to);
    await expectRangeTrue('2020-01-01', '2020-01-31');
  });

  it('counts an account at the UTC day it was made, also just before and after midnight', async () => {
    const june30 = await countNewAccounts(t.db, '2025-06-30', '2025-07-01');
    const july1 = await countNewAccounts(t.db, '2025-07-01', '2025-07-02');
    await newUser('2025-06-30T23:59:59.999Z');
    await newUser('2025-07-01T00:00:00Z');
    await newUser('2025-07-01T01:30:00+02:00'); // 23:30 UTC on 30 June
    expect(await countNewAccounts(t.db, '2025-06-30', '2025-07-01')).toBe(june30 + 2);
    expect(await countNewAccounts(t.db, '2025-07-01', '2025-07-02')).toBe(july1 + 1);
    await expectDaysTrue();
  });

  it('keeps a deleted account (its pseudonymous row stays) and drops swept and removed ones', async () => {
    const to = today();
    const before = await expectRangeTrue(addDays(to, -364), to);
    const erased = await newUser();
    await t.db.transaction((tx) => eraseAccount(tx, erased));
    expect(await expectRangeTrue(addDays(to, -364), to)).toBe(before + 1);

    // Never verified, 40 days old: the sweep takes them (and seeded unverified ones without orders).
    const old = addDays(to, -40);
    const { rows: kept } = await t.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users u WHERE (u.created_at AT TIME ZONE 'UTC')::date = $1
          AND (u.email_verified_at IS NOT NULL OR EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id))`,
      [old],
    );
    await newUser(`${old}T10:00:00Z`, false);
    await newUser(`${old}T11:00:00Z`, false);
    // The housekeeping's condition (orders' hasOrdersSql): accounts with orders stay.
    const swept = await sweepUnverifiedAccounts(
      t.db,
      30,
      (userId) => sql`EXISTS (SELECT 1 FROM orders o WHERE o.user_id = ${userId})`,
    );
    expect(swept).toBeGreaterThanOrEqual(2);
    expect(await countNewAccounts(t.db, old, addDays(old, 1))).toBe(kept[0]!.n);
    await expectRangeTrue(addDays(to, -364), to);

    await t.pool.query('DELETE FROM users WHERE id = $1', [erased]);
    await expectDaysTrue();
  });

  it('moves an account whose created_at changes, and ignores rolled-back and conflicting inserts', async () => {
    const count = (day: string) => countNewAccounts(t.db, day, addDays(day, 1));
    const [aug10, aug12, aug20, aug21] = await Promise.all(
      ['2025-08-10', '2025-08-12', '2025-08-20', '2025-08-21'].map(count),
    );
    const id = await newUser('2025-08-10T12:00:00Z');
    expect(await count('2025-08-10')).toBe(aug10! + 1);
    await t.pool.query("UPDATE users SET created_at = '2025-08-12T12:00:00Z' WHERE id = $1", [id]);
    expect(await count('2025-08-10')).toBe(aug10);
    expect(await count('2025-08-12')).toBe(aug12! + 1);
    // Same day, other time: nothing moves.
    await t.pool.query("UPDATE users SET created_at = '2025-08-12T18:00:00Z', name = 'Renamed' WHERE id = $1", [id]);
    expect(await count('2025-08-12')).toBe(aug12! + 1);

    const client = await t.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        "INSERT INTO users (name, email, password_hash, created_at) VALUES ('Gone', 'gone@example.com', 'x', '2025-08-20T00:00:00Z')",
      );
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await count('2025-08-20')).toBe(aug20);
    // A sign-up with a taken address inserts nothing (ON CONFLICT DO NOTHING), and counts nothing.
    await t.pool.query(
      "INSERT INTO users (name, email, password_hash, created_at) VALUES ('Again', 'COUNTED-1@example.com', 'x', '2025-08-21T00:00:00Z') ON CONFLICT DO NOTHING",
    );
    expect(await count('2025-08-21')).toBe(aug21);
    await expectDaysTrue();
  });

  it('counts concurrent sign-ups of one day exactly', async () => {
    const to = today();
    const before = await countNewAccounts(t.db, to, addDays(to, 1));
    await Promise.all(Array.from({ length: 20 }, () => newUser()));
    expect(await countNewAccounts(t.db, to, addDays(to, 1))).toBe(before + 20);
    await expectDaysTrue();
  });

  it('is emptied by a truncate of users', async () => {
    await t.pool.query('TRUNCATE users CASCADE');
    expect(await expectDaysTrue()).toEqual([]);
    expect(await countNewAccounts(t.db, '2000-01-01', addDays(today(), 1))).toBe(0);
  });
});
