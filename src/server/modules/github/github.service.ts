import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { GithubRepositoryStatus } from '../../../common/schemas/github.ts';
import type { Database, Reader } from '../../db/open.ts';
import { deletedRows } from '../../lib/housekeeping.ts';
import { kitRepositoriesSql } from '../catalog/catalog.service.ts';
import { userKitIdsSql } from '../library/library.service.ts';

/**
 * Private-repository delivery: which GitHub account a customer connected, and which repositories
 * it should reach. Every change of what a customer owns (a payment, a refund, an owner's grant or
 * revoke) calls `queueRepositoryAccessSync` in its own transaction; connecting and disconnecting
 * call it too. It compares the repositories the customer's kits give with those granted to the
 * connected account (the newest job of each), and queues a grant or a revoke job for each
 * difference; `github.jobs.ts` runs them.
 */

/** Any fixed number: one customer's syncs take turns (with the user's id as the second key). */
const SYNC_LOCK = 314_159_265;

const lockCustomer = (tx: Reader, userId: number) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(${SYNC_LOCK}, ${userId})`);

/**
 * The repositories held by the connected account: the newest job of each repository for this
 * account is a grant (queued, done or failed: a failed one is not queued again on its own).
 */
const heldSql = (userId: number) => sql`
  SELECT latest.repository FROM (
    SELECT DISTINCT ON (j.repository) j.repository, j.action
      FROM github_jobs j JOIN github_accounts a ON a.user_id = j.user_id AND a.github_id = j.github_id
     WHERE j.user_id = ${userId}
     ORDER BY j.repository, j.id DESC) latest
   WHERE latest.action = 'grant'`;

/** What the customer's kits give now. */
const wantedSql = (userId: number) => sql`
  SELECT DISTINCT r.repository FROM (${kitRepositoriesSql()}) r WHERE r.kit_id = ANY(${userKitIdsSql(sql`${userId}`)})`;

/**
 * Queues the grants and revokes that bring the customer's connected GitHub account in line with
 * what they own now. Call it inside the transaction that changed what they own, after the change:
 * the jobs commit with it or not at all. Nothing happens for a customer with no GitHub account.
 * Returns the number of jobs queued.
 */
export async function queueRepositoryAccessSync(tx: Reader, userId: number): Promise<number> {
  await lockCustomer(tx, userId);
  const { rows } = await tx.execute<{ id: number }>(sql`
    WITH wanted AS (${wantedSql(userId)}), held AS (${heldSql(userId)}),
    changes AS (
      SELECT 'grant' AS action, w.repository FROM wanted w WHERE w.repository NOT IN (SELECT repository FROM held)
      UNION ALL
      SELECT 'revoke', h.repository FROM held h WHERE h.repository NOT IN (SELECT repository FROM wanted))
    INSERT INTO github_jobs (user_id, action, repository, github_id, login)
    SELECT a.user_id, c.action, c.repository, a.github_id, a.login
      FROM changes c CROSS JOIN github_accounts a WHERE a.user_id = ${userId}
    ORDER BY c.action DESC, c.repository
    RETURNING id`);
  return rows.length;
}

/**
 * Of these customers, those with a GitHub account connected (`user_id` rows): a query, so a group of
 * payments asks it at the end of the statement that writes its effects.
 */
export const connectedGithubSql = (userIds: number[]): SQL =>
  sql`SELECT user_id FROM github_accounts WHERE user_id = ANY(${sql.param([...new Set(userIds)])}::int[]) ORDER BY user_id`;

/**
 * Unlinks the customer's GitHub account and queues the revoke of every repository it was given.
 * For a disconnect, and for an account about to be deleted (call it in the deleting transaction,
 * before the user row goes: the jobs outlive the user). False when no account was connected.
 */
export async function disconnectGithub(tx: Reader, userId: number): Promise<boolean> {
  await lockCustomer(tx, userId);
  await tx.execute(sql`
    INSERT INTO github_jobs (user_id, action, repository, github_id, login)
    SELECT a.user_id, 'revoke', h.repository, a.github_id, a.login
      FROM (${heldSql(userId)}) h CROSS JOIN github_accounts a WHERE a.user_id = ${userId}
    ORDER BY h.repository`);
  const { rows } = await tx.execute(sql`DELETE FROM github_accounts WHERE user_id = ${userId} RETURNING user_id`);
  return rows.length > 0;
}

export type ConnectOutcome = 'connected' | 'taken' | 'other_account';

/**
 * Links a GitHub account to the customer (one each way) and queues the grants of what they own.
 * `taken`: another customer has linked it; `other_account`: this customer has another one linked.
 */
export async function connectGithub(
  db: Database,
  userId: number,
  identity: { id: number; login: string },
): Promise<ConnectOutcome> {
  return db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    const { rows } = await tx.execute<{ user_id: number; github_id: number }>(sql`
      SELECT user_id, github_id FROM github_accounts WHERE user_id = ${userId} OR github_id = ${identity.id}`);
    if (rows.some((r) => r.user_id !== userId)) return 'taken';
    if (rows.some((r) => Number(r.github_id) !== identity.id)) return 'other_account';
    const inserted = await tx.execute(sql`
      INSERT INTO github_accounts (user_id, github_id, login) VALUES (${userId}, ${identity.id}, ${identity.login})
      ON CONFLICT (user_id) DO UPDATE SET login = excluded.login
      RETURNING user_id`);
    if (inserted.rows.length === 0) return 'taken';
    await followGithubRename(tx, identity.id, identity.login);
    await queueRepositoryAccessSync(tx, userId);
    return 'connected';
  });
}

/**
 * The GitHub account renamed itself: its stored login (shown to the buyer and the owner) and its
 * queued jobs' follow. Jobs reach GitHub by the account's id, so this is for display only.
 */
export async function followGithubRename(db: Reader, githubId: number, login: string): Promise<void> {
  await db.execute(
    sql`UPDATE github_accounts SET login = ${login} WHERE github_id = ${githubId} AND login <> ${login}`,
  );
  await db.execute(sql`
    UPDATE github_jobs SET login = ${login} WHERE github_id = ${githubId} AND status = 'queued' AND login <> ${login}`);
}

/** The customer's connected GitHub account, if any. */
export async function githubAccountOf(db: Reader, userId: number) {
  const { rows } = await db.execute<{ github_id: string | number; login: string }>(
    sql`SELECT github_id, login FROM github_accounts WHERE user_id = ${userId}`,
  );
  const row = rows[0];
  return row ? { githubId: Number(row.github_id), login: row.login } : undefined;
}

type StatusRow = {
  kit_id: number;
  repository: string;
  action: 'grant' | 'revoke' | null;
  status: 'queued' | 'done' | 'failed' | null;
  outcome: 'invited' | 'active' | 'revoked' | null;
  owned: boolean;
};

/**
 * The customer's GitHub account and, per kit with a repository, where its access stands: the
 * kits they own, and those whose repository access was revoked (refunded, revoked, disconnected).
 */
export async function repositoryAccess(db: Reader, userId: number, webUrl: string) {
  const [account, statuses] = await Promise.all([
    db.execute<{ github_id: number; login: string }>(
      sql`SELECT github_id, login FROM github_accounts WHERE user_id = ${userId}`,
    ),
    db.execute<StatusRow>(sql`
      WITH owned AS (SELECT unnest(${userKitIdsSql(sql`${userId}`)}) AS kit_id),
      latest AS (
        SELECT DISTINCT ON (j.repository) j.repository, j.action, j.status, j.outcome
          FROM github_jobs j
          LEFT JOIN github_accounts a ON a.user_id = j.user_id
         WHERE j.user_id = ${userId} AND (a.github_id IS NULL OR a.github_id = j.github_id)
         ORDER BY j.repository, j.id DESC)
      SELECT r.kit_id, r.repository, l.action, l.status, l.outcome,
             r.kit_id IN (SELECT kit_id FROM owned) AS owned
        FROM (${kitRepositoriesSql()}) r LEFT JOIN latest l ON l.repository = r.repository
       WHERE r.kit_id IN (SELECT kit_id FROM owned) OR l.action = 'revoke'
       ORDER BY r.kit_id`),
  ]);
  const connected = account.rows[0];
  const repositories = statuses.rows
    .map((row) => ({ kit_id: row.kit_id, ...describe(row, Boolean(connected), webUrl), owned: row.owned }))
    .filter((r) => r.owned || r.status === 'revoked')
    .map(({ owned: _owned, ...r }) => r);
  return { connected: Boolean(connected), login: connected?.login ?? null, repositories };
}

function describe(row: StatusRow, connected: boolean, webUrl: string): Omit<GithubRepositoryStatus, 'kit_id'> {
  const name = row.repository;
  const status = ((): GithubRepositoryStatus['status'] => {
    if (!row.owned) return 'revoked';
    if (!connected) return 'connect';
    if (row.action !== 'grant' || row.status === 'queued') return 'pending';
    if (row.status === 'failed') return 'failed';
    return row.outcome === 'active' ? 'active' : 'invited';
  })();
  const url = status === 'invited' ? `${webUrl}/${name}/invitations` : status === 'active' ? `${webUrl}/${name}` : null;
  return { name, status, url };
}

/** Marks the account's invited repositories that it has joined since (it accepted on GitHub). */
export async function markJoined(db: Reader, userId: number, repositories: string[]): Promise<void> {
  if (repositories.length === 0) return;
  await db.execute(sql`
    UPDATE github_jobs SET outcome = 'active'
     WHERE id IN (SELECT DISTINCT ON (repository) id FROM github_jobs
                   WHERE user_id = ${userId} AND repository = ANY(${sql.param(repositories)}::text[])
                   ORDER BY repository, id DESC)
       AND action = 'grant' AND status = 'done' AND outcome = 'invited'`);
}

/** Starts a connection: the state (stored hashed, bound to the session) and its PKCE verifier. */
export async function saveOauthState(
  db: Reader,
  entry: { state: string; sessionToken: string; userId: number; codeVerifier: string; returnPath: string },
): Promise<void> {
  await db.execute(sql`
    INSERT INTO github_oauth_states (state_hash, session_hash, user_id, code_verifier, return_path, expires_at)
    VALUES (${hash(entry.state)}, ${hash(entry.sessionToken)}, ${entry.userId}, ${entry.codeVerifier},
            ${entry.returnPath}, now() + interval '10 minutes')`);
}

/**
 * Takes a state back, once: it is deleted whatever the outcome, and answers only for the session
 * and user that started it, within ten minutes.
 */
export async function takeOauthState(db: Reader, state: string, sessionToken: string, userId: number) {
  const { rows } = await db.execute<{ code_verifier: string; return_path: string; fits: boolean }>(sql`
    DELETE FROM github_oauth_states WHERE state_hash = ${hash(state)}
    RETURNING code_verifier, return_path,
              (session_hash = ${hash(sessionToken)} AND user_id = ${userId} AND expires_at > now()) AS fits`);
  const row = rows[0];
  return row?.fits ? { codeVerifier: row.code_verifier, returnPath: row.return_path } : undefined;
}

/** Expired connection states (housekeeping). */
export async function sweepOauthStates(db: Reader): Promise<number> {
  return deletedRows(await db.execute(sql`DELETE FROM github_oauth_states WHERE expires_at <= now()`));
}

/** Per customer, the repository jobs that failed for good (the owner console shows them). */
export async function failedRepositoryJobs(db: Reader, userId: number) {
  const { rows } = await db.execute<{
    id: number;
    action: string;
    repository: string;
    login: string;
    last_error: string | null;
    at: string;
  }>(sql`
    SELECT id, action, repository, login, last_error, finished_at AS at FROM github_jobs
     WHERE user_id = ${userId} AND status = 'failed' ORDER BY id DESC LIMIT 50`);
  return rows;
}

const hash = (value: string) => createHash('sha256').update(value).digest('hex');
