import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { type GithubRepositories, toGithubError } from '../../integrations/github/github.ts';
import { serialRounds } from '../../lib/serial-rounds.ts';
import { followGithubRename } from './github.service.ts';

/**
 * Runs the repository jobs `github.service.ts` queues, the mail outbox's way: a batch is claimed in
 * one committed statement (FOR UPDATE SKIP LOCKED, attempts counted, due again only after
 * CLAIM_SECONDS should this process die mid-call), then GitHub is called outside any transaction.
 * Jobs of one repository and account wait for the older ones, so a refund's revoke never overtakes
 * the payment's grant. A job names the account by its GitHub id: the login it is invited or removed
 * under is looked up from the id when the job runs (the one copied into the job may be stale, and may
 * belong to someone else by now), and a login that changed is kept for display. 5xx, network errors
 * and rate limits are retried with backoff (a rate limit waits as long as GitHub said); other refusals
 * (404 repository, 422 user) fail for good, with GitHub's message kept for the owner.
 */

type Log = { info: (msg: string) => void; warn: (obj: object, msg: string) => void };

export const CLAIM_SECONDS = 300;
/** After this many attempts (about a day of backoff) a retryable failure is recorded as failed too. */
export const MAX_ATTEMPTS = 30;

/** 5 s, 10 s, 20 s ... capped at an hour. */
export const retryDelaySeconds = (attempts: number) => Math.min(5 * 2 ** Math.max(0, attempts - 1), 3600);

type JobRow = {
  id: number;
  action: 'grant' | 'revoke';
  repository: string;
  /** bigint: the driver hands it over as a string. */
  github_id: string | number;
  login: string;
  attempts: number;
};

export type JobOptions = { batch?: number; retryDelay?: (attempts: number) => number };

/** Runs the due jobs once; answers how many it claimed (finished or put back for a retry). */
export async function runDueGithubJobs(
  db: Reader,
  github: GithubRepositories,
  log: Log,
  options: JobOptions = {},
): Promise<number> {
  const { batch = 10, retryDelay = retryDelaySeconds } = options;
  const { rows } = await db.execute<JobRow>(sql`
    UPDATE github_jobs SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${CLAIM_SECONDS})
     WHERE id IN (
       SELECT j.id FROM github_jobs j
        WHERE j.status = 'queued' AND j.next_attempt_at <= now()
          AND NOT EXISTS (SELECT 1 FROM github_jobs e WHERE e.status = 'queued' AND e.repository = j.repository
                             AND e.github_id = j.github_id AND e.id < j.id)
        ORDER BY j.id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING id, action, repository, github_id, login, attempts`);
  rows.sort((a, b) => a.id - b.id);
  await Promise.all(rows.map((job) => runJob(db, github, log, job, retryDelay)));
  return rows.length;
}

async function runJob(
  db: Reader,
  github: GithubRepositories,
  log: Log,
  job: JobRow,
  retryDelay: (attempts: number) => number,
): Promise<void> {
  try {
    const githubId = Number(job.github_id);
    let outcome: 'invited' | 'active' | 'revoked';
    let login: string | undefined;
    if (job.action === 'grant') ({ outcome, login } = await github.invite(job.repository, githubId));
    else {
      ({ login } = await github.remove(job.repository, githubId));
      outcome = 'revoked';
    }
    login ??= job.login;
    await db.execute(sql`
      UPDATE github_jobs SET status = 'done', outcome = ${outcome}, login = ${login}, last_error = NULL,
             finished_at = now()
       WHERE id = ${job.id}`);
    if (login !== job.login) await followGithubRename(db, githubId, login);
    log.info(`github: ${job.action} ${job.repository} for ${login} (#${githubId}): ${outcome}`);
  } catch (raw) {
    const error = toGithubError(raw);
    if (error.retryable && job.attempts < MAX_ATTEMPTS) {
      // A rate limit waits as long as GitHub asked (a second more for clocks); other failures back off.
      const delay =
        error.retryAfterSeconds !== undefined ? Math.ceil(error.retryAfterSeconds) + 1 : retryDelay(job.attempts);
      await db.execute(sql`
        UPDATE github_jobs SET last_error = ${error.message}, next_attempt_at = now() + make_interval(secs => ${delay})
         WHERE id = ${job.id}`);
      log.warn(
        { status: error.status, answer: error.message },
        `github: ${job.action} ${job.repository} for ${job.login} failed (attempt ${job.attempts}); retrying in ${delay} s`,
      );
      return;
    }
    await db.execute(sql`
      UPDATE github_jobs SET status = 'failed', last_error = ${error.message}, finished_at = now() WHERE id = ${job.id}`);
    // An expected outcome, not a bug: GitHub's answer without a stack.
    log.warn(
      { status: error.status, answer: error.message },
      `github: ${job.action} ${job.repository} for ${job.login} failed for good`,
    );
  }
}

/**
 * Runs due jobs every `intervalMs` (a cheap look at a partial index), and at once after `nudge()`.
 * Every instance polls, so a job queued by any of them starts within about a second.
 */
export function startGithubWorker(
  db: Reader,
  github: GithubRepositories,
  log: Log,
  options: JobOptions & { intervalMs?: number } = {},
) {
  const rounds = serialRounds(
    async () => (await runDueGithubJobs(db, github, log, options)) >= (options.batch ?? 10),
    (error) => log.warn({ err: error }, 'github job round failed'),
  );
  const run = rounds.run;
  const timer = setInterval(run, options.intervalMs ?? 1000);
  timer.unref();
  return {
    nudge: () => void run(),
    async stop() {
      clearInterval(timer);
      await rounds.stop();
    },
  };
}
export type GithubWorker = ReturnType<typeof startGithubWorker>;
