import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { foldKitOwnerChanges, libraryStatsByKit } from './library.owner.service.ts';

/**
 * kit_counts is kept by statement triggers (migration 0008; owners through kit_owner_changes since
 * 0014): whatever changes downloads and entitlements, the console's two numbers per kit must equal
 * counting the rows.
 */
let t: TestApp;
let kitIds: number[];
let versionOf: Map<number, number>;

beforeAll(async () => {
  t = await createTestApp();
  const versions = await t.pool.query<{ kit_id: number; id: number }>(
    'SELECT DISTINCT ON (kit_id) kit_id, id FROM kit_versions ORDER BY kit_id, id',
  );
  versionOf = new Map(versions.rows.map((r) => [r.kit_id, r.id]));
  kitIds = [...versionOf.keys()];
  expect(kitIds.length).toBeGreaterThanOrEqual(2);
});
afterAll(() => t.close());

let userCount = 0;
async function newUser(): Promise<number> {
  const { rows } = await t.pool.query<{ id: number }>(
    "INSERT INTO users (name, email, password_hash) VALUES ('Counted', $1, 'x') RETURNING id",
    [`counted-${++userCount}@example.com`],
  );
  return rows[0]!.id;
}

async function expectCountsTrue() {
  const truth = await t.pool.query<{ id: number; downloads: number; owners: number }>(`
    SELECT k.id, (SELECT count(*) FROM downloads d WHERE d.kit_id = k.id)::int AS downloads,
           (SELECT count(*) FROM entitlements e WHERE e.kit_id = k.id AND e.revoked_at IS NULL)::int AS owners
      FROM kits k`);
  const stats = await libraryStatsByKit(t.db);
  for (const row of truth.rows) {
    const { downloads = 0, owners = 0 } = stats.get(row.id) ?? {};
    expect({ kit: row.id, downloads, owners }).toEqual({
      kit: row.id,
      downloads: row.downloads,
      owners: row.owners,
    });
  }
  return truth.rows;
}

const download = (userId: number, kitId: number) =>
  t.pool.query('INSERT INTO downloads (user_id, kit_id, version_id) VALUES ($1, $2, $3)', [
    userId,
    kitId,
    versionOf.get(kitId),
  ]);

describe('kit_counts', () => {
  it('follows single and bulk downloads, their deletion, a deleted user and a truncate', async () => {
    const [a, b] = kitIds as [number, number];
    const first = await newUser();
    const second = await newUser();
    await download(first, a);
    await download(first, a);
    await t.pool.query(
      `INSERT INTO downloads (user_id, kit_id, version_id)
       SELECT $1, k, v FROM unnest($2::int[], $3::int[]) AS x(k, v)`,
      [second, [a, b, b], [versionOf.get(a), versionOf.get(b), versionOf.get(b)]],
    );
    const counted = await expectCountsTrue();
    expect(counted.find((r) => r.id === a)?.downloads).toBeGreaterThanOrEqual(3);

    await t.pool.query('DELETE FROM downloads WHERE user_id = $1 AND kit_id = $2', [second, b]);
    await expectCountsTrue();
    await t.pool.query('DELETE FROM users WHERE id = $1', [first]); // cascades to its downloads
    await expectCountsTrue();
    await t.pool.query('TRUNCATE downloads');
    const after = await expectCountsTrue();
    expect(after.every((r) => r.downloads === 0)).toBe(true);
  });

  it('counts concurrent downloads of one kit exactly', async () => {
    const user = await newUser();
    const before = (await libraryStatsByKit(t.db)).get(kitIds[0]!)?.downloads ?? 0;
    await Promise.all(Array.from({ length: 20 }, () => download(user, kitIds[0]!)));
    expect((await libraryStatsByKit(t.db)).get(kitIds[0]!)?.downloads).toBe(before + 20);
    await expectCountsTrue();
  });

  it('follows grants, revokes, re-grants by upsert, moved rows and deleted owners', async () => {
    const [a, b] = kitIds as [number, number];
    const first = await newUser();
    const second = await newUser();
    await t.pool.query(
      `INSERT INTO entitlements (user_id, kit_id, source)
       SELECT u, k, 'test' FROM unnest($1::int[], $2::int[]) AS x(u, k)`,
      [
        [first, first, second],
        [a, b, a],
      ],
    );
    await expectCountsTrue();
    await t.pool.query('UPDATE entitlements SET revoked_at = now() WHERE user_id = $1 AND kit_id = $2', [first, a]);
    await expectCountsTrue();
    // The fulfilment's re-grant: an upsert that turns a revoked row active again.
    await t.pool.query(
      `INSERT INTO entitlements (user_id, kit_id, source) VALUES ($1, $2, 'again'), ($1, $3, 'again')
       ON CONFLICT (user_id, kit_id) DO UPDATE SET revoked_at = NULL, source = EXCLUDED.source`,
      [first, a, b],
    );
    await expectCountsTrue();
    await t.pool.query('UPDATE entitlements SET kit_id = $1 WHERE user_id = $2 AND kit_id = $3', [b, second, a]);
    await expectCountsTrue();
    await t.pool.query('DELETE FROM users WHERE id = $1', [first]);
    await expectCountsTrue();
    await t.pool.query('TRUNCATE entitlements CASCADE'); // licence_keys refer to its rows
    expect((await expectCountsTrue()).every((r) => r.owners === 0)).toBe(true);
  });

  it('lets grants of one kit in transactions running at once go on without waiting for each other', async () => {
    const kit = kitIds[0]!;
    const [first, second] = [await newUser(), await newUser()];
    const grant = "INSERT INTO entitlements (user_id, kit_id, source) VALUES ($1, $2, 'test')";
    const one = await t.pool.connect();
    const two = await t.pool.connect();
    try {
      await one.query('BEGIN');
      await one.query(grant, [first, kit]);
      // Its count was the kit's one counter row, held by the first transaction until its commit.
      await two.query('BEGIN');
      await two.query("SET LOCAL lock_timeout = '2s'");
      await two.query(grant, [second, kit]);
      await two.query('COMMIT');
      await one.query('COMMIT');
    } finally {
      await one.query('ROLLBACK').catch(() => {});
      await two.query('ROLLBACK').catch(() => {});
      one.release();
      two.release();
    }
    await expectCountsTrue();
  });

  it('folds the owner count changes into kit_counts without changing a count', async () => {
    const kit = kitIds[1]!;
    const user = await newUser();
    await t.pool.query("INSERT INTO entitlements (user_id, kit_id, source) VALUES ($1, $2, 'test')", [user, kit]);
    const before = await expectCountsTrue();
    expect(await foldKitOwnerChanges(t.db)).toBeGreaterThan(0);
    expect(await expectCountsTrue()).toEqual(before);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM kit_owner_changes')).rows[0].n).toBe(0);
    const folded = await t.pool.query('SELECT owners FROM kit_counts WHERE kit_id = $1', [kit]);
    expect(folded.rows[0].owners).toBe(before.find((r) => r.id === kit)!.owners);
    expect(await foldKitOwnerChanges(t.db)).toBe(0);
  });
});
