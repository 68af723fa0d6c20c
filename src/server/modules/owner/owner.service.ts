import { type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Reader } from '../../db/open.ts';
import { accountOf, verifiedAccountsWithEmails, verifiedEmailsSql } from '../accounts/accounts.owner.service.ts';

/** Who is an owner, the owners added from the command line, and the activity log. */

export type Owner = { id: number; email: string; name: string };

const normalise = (email: string) => email.trim().toLowerCase();

async function storedOwnerEmails(db: Reader): Promise<string[]> {
  const { rows } = await db.execute<{ email: string }>(sql`SELECT email FROM owners ORDER BY email`);
  return rows.map((r) => r.email);
}

/** The signed-in user as an owner: a verified account whose e-mail is in OWNER_EMAILS or the owners table. */
export async function findOwner(db: Reader, config: Config, userId: number): Promise<Owner | null> {
  // Both at once (the owners table is small): one round trip on every owner call.
  const [account, stored] = await Promise.all([accountOf(db, userId), storedOwnerEmails(db)]);
  if (!account?.verified) return null;
  const email = normalise(account.email);
  if (!config.ownerEmails.includes(email) && !stored.includes(email)) return null;
  return { id: account.id, email: account.email, name: account.name };
}

/**
 * Whether an address is an owner's (OWNER_EMAILS or the owners table, whatever its case), account
 * or not: owners are named here, so no account may move to such an address.
 */
export async function isOwnerEmail(db: Reader, config: Config, email: string): Promise<boolean> {
  const wanted = normalise(email);
  if (config.ownerEmails.includes(wanted)) return true;
  const { rows } = await db.execute(sql`SELECT 1 FROM owners WHERE lower(email) = ${wanted} LIMIT 1`);
  return rows.length > 0;
}

/**
 * The owners' addresses (verified accounts only), told of each sale: a text[] expression, so a
 * payment reads them in the statement that locks its orders.
 */
export const ownerAddressesSql = (config: Config): SQL =>
  verifiedEmailsSql(sql`ARRAY(SELECT unnest(${sql.param(config.ownerEmails)}::text[]) UNION SELECT email FROM owners)`);

/** One row of the activity log, in the caller's transaction (the change it records). */
export async function recordActivity(
  tx: Reader,
  owner: Owner,
  entry: { action: string; target: string; detail: string },
): Promise<void> {
  await tx.execute(sql`
    INSERT INTO owner_activity (actor_id, actor, action, target, detail)
    VALUES (${owner.id}, ${owner.email}, ${entry.action}, ${entry.target}, ${entry.detail})`);
}

export async function activityPage(db: Reader, options: { after?: { at: string; id: number }; limit: number }) {
  const after = options.after ? sql`WHERE (at, id) < (${options.after.at}::timestamptz, ${options.after.id})` : sql``;
  const { rows } = await db.execute<{
    id: number;
    at: string;
    actor: string;
    action: string;
    target: string;
    detail: string;
    cursor_at: string;
  }>(sql`SELECT id, at, actor, action, target, detail, at::text AS cursor_at FROM owner_activity ${after}
          ORDER BY at DESC, id DESC LIMIT ${options.limit}`);
  return rows;
}

// ---- `npm run owner` -----------------------------------------------------------------------------

export async function addOwner(db: Reader, email: string): Promise<boolean> {
  const { rows } = await db.execute(
    sql`INSERT INTO owners (email) VALUES (${normalise(email)}) ON CONFLICT DO NOTHING RETURNING email`,
  );
  return rows.length > 0;
}

export async function removeOwner(db: Reader, email: string): Promise<boolean> {
  const { rows } = await db.execute(sql`DELETE FROM owners WHERE email = ${normalise(email)} RETURNING email`);
  return rows.length > 0;
}

/**
 * Writes the OWNER_EMAILS a starting server reads, for `npm run owner -- list` to show (that
 * command's own environment may lack them). One statement, so a reader sees the old set or the new.
 */
export async function recordServerOwnerEmails(db: Reader, emails: readonly string[]): Promise<void> {
  const list = [...new Set(emails.map(normalise))];
  await db.execute(sql`WITH gone AS (DELETE FROM server_owner_emails WHERE NOT (email = ANY(${sql.param(list)}::text[])))
    INSERT INTO server_owner_emails (email) SELECT unnest(${sql.param(list)}::text[])
    ON CONFLICT (email) DO UPDATE SET recorded_at = now()`);
}

/**
 * Every owner e-mail (the table's, and OWNER_EMAILS' as the server last started with them and as
 * this process has them), with whether a verified account has it yet.
 */
export async function listOwners(db: Reader, config: Config) {
  const [stored, server] = await Promise.all([
    storedOwnerEmails(db),
    db.execute<{ email: string }>(sql`SELECT email FROM server_owner_emails`),
  ]);
  const configured = [...new Set([...config.ownerEmails, ...server.rows.map((r) => r.email)])];
  const all = [...new Set([...stored, ...configured])].sort();
  const verified = new Set((await verifiedAccountsWithEmails(db, all)).map((a) => normalise(a.email)));
  return all.map((email) => ({
    email,
    from: stored.includes(email) ? (configured.includes(email) ? 'both' : 'database') : 'OWNER_EMAILS',
    active: verified.has(email),
  }));
}
