import { type SQL, sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { containsPattern } from '../../lib/search.ts';

/** What the owner console reads of accounts (only accounts' own tables). */

export type AccountRow = {
  id: number;
  email: string;
  name: string;
  created_at: string;
  verified: boolean;
  last_sign_in: string | null;
  /** created_at in full precision, for the list's cursor. */
  cursor_at: string;
};

const ACCOUNT_COLUMNS = sql`u.id, CASE WHEN u.deleted_at IS NULL THEN u.email ELSE '' END AS email, u.name, u.created_at, u.email_verified_at IS NOT NULL AS verified,
  u.created_at::text AS cursor_at,
  (SELECT max(s.created_at) FROM sessions s WHERE s.user_id = u.id) AS last_sign_in`;

/** An account by id: its e-mail and whether it is verified (the owner check reads this). */
export async function accountOf(db: Reader, userId: number): Promise<AccountRow | undefined> {
  const { rows } = await db.execute<AccountRow>(sql`SELECT ${ACCOUNT_COLUMNS} FROM users u WHERE u.id = ${userId}`);
  return rows[0];
}

/**
 * The e-mails of verified accounts with one of these e-mails (a text[] expression, lower case), as
 * a text[] expression to embed in a caller's statement, e.g. the owners to tell of a sale.
 */
export const verifiedEmailsSql = (emails: SQL): SQL =>
  sql`ARRAY(SELECT u.email FROM users u
             WHERE lower(u.email) = ANY(${emails}) AND u.email_verified_at IS NOT NULL ORDER BY u.id)`;

/** Verified accounts with one of these e-mails (lower case). */
export async function verifiedAccountsWithEmails(db: Reader, emails: string[]) {
  if (emails.length === 0) return [];
  const { rows } = await db.execute<{ id: number; name: string; email: string }>(sql`
    SELECT id, name, email FROM users
     WHERE lower(email) = ANY(${sql.param(emails)}::text[]) AND email_verified_at IS NOT NULL ORDER BY id`);
  return rows;
}

const matches = (query: string): SQL => {
  const pattern = containsPattern(query);
  return /^\d+$/.test(query)
    ? sql`(u.id = ${Number(query)} OR u.email ILIKE ${pattern})`
    : sql`(u.email ILIKE ${pattern} OR u.name ILIKE ${pattern})`;
};

/** Accounts newest first, by cursor (created_at, id of the last one seen), optionally matching a text. */
export async function listAccounts(
  db: Reader,
  options: { query?: string; after?: { at: string; id: number }; limit: number },
): Promise<AccountRow[]> {
  const where: SQL[] = [sql`true`];
  if (options.query) where.push(matches(options.query));
  if (options.after) where.push(sql`(u.created_at, u.id) < (${options.after.at}::timestamptz, ${options.after.id})`);
  const { rows } = await db.execute<AccountRow>(sql`
    SELECT ${ACCOUNT_COLUMNS} FROM users u WHERE ${sql.join(where, sql` AND `)}
     ORDER BY u.created_at DESC, u.id DESC LIMIT ${options.limit}`);
  return rows;
}

/**
 * A query giving the ids of the accounts whose e-mail or name contains the text, for the orders search
 * to embed (decision 010's SQL fragment): PostgreSQL then walks the newest orders and checks each
 * buyer (a broad text), or starts from the few accounts the trigram indexes find (a rare one), and
 * every matching account counts, however many there are.
 */
export const accountsMatchingSql = (query: string): SQL => sql`SELECT u.id FROM users u WHERE ${matches(query)}`;

/** Names and e-mails of these accounts; a deleted account has no e-mail (''), its orders stay. */
export async function accountsByIds(db: Reader, ids: number[]) {
  if (ids.length === 0) return new Map<number, { email: string; name: string }>();
  const { rows } = await db.execute<{ id: number; email: string; name: string }>(
    sql`SELECT id, CASE WHEN deleted_at IS NULL THEN email ELSE '' END AS email, name
          FROM users WHERE id = ANY(${sql.param(ids)}::int[])`,
  );
  return new Map(rows.map((r) => [r.id, { email: r.email, name: r.name }]));
}

/**
 * Accounts created in [from, to) (UTC days), summed from account_days (kept by triggers on users):
 * a year is at most 365 rows, however many accounts there are.
 */
export async function countNewAccounts(db: Reader, from: string, toExclusive: string): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    SELECT COALESCE(sum(accounts), 0)::int AS n FROM account_days WHERE day >= ${from}::date AND day < ${toExclusive}::date`);
  return rows[0]?.n ?? 0;
}
