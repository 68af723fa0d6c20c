import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../../tests/factories/users.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { loadConfig } from '../../config.ts';
import { retentionChores } from './privacy.service.ts';

let t: TestApp;
let kit: { id: number; version_id: number };

beforeAll(async () => {
  t = await createTestApp();
  kit = (
    await t.pool.query('SELECT k.id, v.id AS version_id FROM kits k JOIN kit_versions v ON v.kit_id = k.id LIMIT 1')
  ).rows[0];
});
afterAll(() => t.close());

const q = async (text: string, values: unknown[] = []) => (await t.pool.query(text, values)).rows;
/** Runs the chores as one housekeeping round would; answers what each deleted. */
async function sweep(days = t.config.retentionDays) {
  const counts: Record<string, number> = {};
  for (const chore of retentionChores(days)) counts[chore.name] = await chore.run(t.db);
  return counts;
}

async function message(ageDays: number, text: string) {
  await q(
    `INSERT INTO contact_messages (name, email, message, ip, created_at)
     VALUES ('Someone', 'someone@example.com', $1, '203.0.113.9', now() - make_interval(days => $2))`,
    [text, ageDays],
  );
}

describe('retention (scheduled housekeeping)', () => {
  it('keeps the numbers the privacy policy states: 730 days by default, 180 and 30', () => {
    expect(t.config.retentionDays).toEqual({ contactMessages: 730, downloadLogsAndIps: 180, unverifiedAccounts: 30 });
    expect(loadConfig({ MESSAGE_RETENTION_DAYS: '90' }).retentionDays.contactMessages).toBe(90);
    expect(() => loadConfig({ MESSAGE_RETENTION_DAYS: 'forever' })).toThrow(/MESSAGE_RETENTION_DAYS/);
    expect(() => loadConfig({ MESSAGE_RETENTION_DAYS: '0' })).toThrow(/MESSAGE_RETENTION_DAYS/);
  });

  it('deletes contact messages older than MESSAGE_RETENTION_DAYS and forgets their IP addresses after 180 days', async () => {
    await message(731, 'too old');
    await message(729, 'kept, without its address');
    await message(179, 'kept with its address');
    const counts = await sweep();
    expect(counts['old contact messages']).toBe(1);
    expect(counts['old IP addresses of contact messages']).toBe(1);
    expect(await q('SELECT message, ip FROM contact_messages ORDER BY id')).toEqual([
      { message: 'kept, without its address', ip: null },
      { message: 'kept with its address', ip: '203.0.113.9' },
    ]);
    // A shorter MESSAGE_RETENTION_DAYS takes more.
    await sweep({ ...t.config.retentionDays, contactMessages: 200 });
    expect(await q('SELECT message FROM contact_messages')).toEqual([{ message: 'kept with its address' }]);
    await q('DELETE FROM contact_messages');
  });

  it('deletes download logs (and their IP addresses) older than 180 days', async () => {
    const user = await createUser(t.pool);
    for (const age of [181, 179, 0]) {
      await q(
        `INSERT INTO downloads (user_id, kit_id, version_id, ip, created_at)
         VALUES ($1, $2, $3, '198.51.100.7', now() - make_interval(days => $4))`,
        [user.id, kit.id, kit.version_id, age],
      );
    }
    expect((await sweep())['old download logs']).toBe(1);
    const left = await q(
      'SELECT round(extract(epoch FROM now() - created_at) / 86400) AS age FROM downloads WHERE user_id = $1 ORDER BY age',
      [user.id],
    );
    expect(left.map((r) => Number(r.age))).toEqual([0, 179]);
  });

  it('deletes accounts left unverified for 30 days, but never a verified one, a buyer of record or a deleted one', async () => {
    const account = async (ageDays: number, verified: boolean) => {
      const user = await createUser(t.pool, { verified });
      await q('UPDATE users SET created_at = now() - make_interval(days => $2) WHERE id = $1', [user.id, ageDays]);
      return user.id;
    };
    const stale = await account(31, false);
    const fresh = await account(29, false);
    const verified = await account(400, true);
    const buyer = await account(31, false);
    await q(
      `INSERT INTO orders (public_id, user_id, total_cents, items_key) VALUES ('ord_retention_test', $1, 4900, $2)`,
      [buyer, String(kit.id)],
    );
    const deleted = await account(31, false);
    await q('UPDATE users SET deleted_at = now() WHERE id = $1', [deleted]);
    await q(
      "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('retention-test', $1, now() + interval '1 hour')",
      [stale],
    );

    expect((await sweep())['unverified accounts']).toBe(1);
    const ids = (await q('SELECT id FROM users WHERE id = ANY($1)', [[stale, fresh, verified, buyer, deleted]])).map(
      (r) => r.id,
    );
    expect(ids.sort()).toEqual([fresh, verified, buyer, deleted].sort());
    expect(await q("SELECT 1 FROM sessions WHERE token_hash = 'retention-test'")).toEqual([]);
  });
});
