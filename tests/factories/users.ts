import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { hashPassword } from '../../src/server/modules/accounts/passwords.ts';

export type UserOverrides = { name?: string; email?: string; password?: string; verified?: boolean };

/** A user row as registration and verification would leave it; overrides for what a test cares about. */
export async function createUser(pool: pg.Pool, overrides: UserOverrides = {}) {
  const user = {
    name: overrides.name ?? 'Ada Lovelace',
    email: overrides.email ?? `ada-${randomBytes(5).toString('hex')}@example.com`,
    password: overrides.password ?? 'analytical-engine-1843',
  };
  const { rows } = await pool.query(
    'INSERT INTO users (name, email, password_hash, email_verified_at) VALUES ($1, $2, $3, $4) RETURNING id',
    [user.name, user.email, await hashPassword(user.password), overrides.verified === false ? null : new Date()],
  );
  return { ...user, id: rows[0].id as number };
}

/** Makes kits owned by a user, as a manual grant would. */
export async function grantKits(db: Pick<pg.Pool, 'query'>, userId: number, kitIds: number[]): Promise<void> {
  await db.query("INSERT INTO entitlements (user_id, kit_id, source) SELECT $1, unnest($2::int[]), 'grant'", [
    userId,
    kitIds,
  ]);
}
