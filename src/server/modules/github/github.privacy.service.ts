import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';

/** The GitHub part of a data export: the connected account and each repository job for it. */
export async function githubExport(db: Reader, userId: number) {
  const [account, jobs] = await Promise.all([
    db.execute<{ login: string; github_id: string; connected_at: string }>(
      sql`SELECT login, github_id, created_at AS connected_at FROM github_accounts WHERE user_id = ${userId}`,
    ),
    db.execute<{ action: string; repository: string; login: string; status: string; created_at: string }>(
      sql`SELECT action, repository, login, status, created_at FROM github_jobs WHERE user_id = ${userId} ORDER BY id`,
    ),
  ]);
  return { account: account.rows[0] ?? null, repository_access: jobs.rows };
}
