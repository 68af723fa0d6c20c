import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { type GithubRepositories, toGithubError } from '../../integrations/github/github.ts';
import { exponentialBackoff, type JobQueue, runJobRound, startJobRunner } from '../../lib/job-runner.ts';
import { followGithubRename } from './github.service.ts';

/**
 * The repository jobs `github.service.ts` queues, run by the shared job runner: a batch is claimed in
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
export const retryDelaySeconds = exponentialBackoff(5, 3600);

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

function githubQueue(db: Reader, github: GithubRepositories, log: Log): JobQueue<JobRow> {
  return {
    name: 'github',
    async claim(limit) {
      const { rows } = await db.execute<JobRow>(sql`
        UPDATE github_jobs SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${CLAIM_SECONDS})
         WHERE id IN (
           SELECT j.id FROM github_jobs j
            WHERE j.status = 'queued' AND j.next_attempt_at <= now()
              AND NOT EXISTS (SELECT 1 FROM github_jobs e WHERE e.status = 'queued' AND e.repository = j.repository
                                 AND e.github_id = j.github_id AND e.id < j.id)
            ORDER BY j.id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, action, repository, github_id, login, attempts`);
      return rows.sort((a, b) => a.id - b.id);
    },
    async perform(job) {
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
    },
    async retry(job, delaySeconds, error) {
      await db.execute(sql`
        UPDATE github_jobs SET last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${delaySeconds})
         WHERE id = ${job.id}`);
    },
    async fail(job, error) {
      await db.execute(sql`
        UPDATE github_jobs SET status = 'failed', last_error = ${error}, finished_at = now() WHERE id = ${job.id}`);
    },
    describe: (job) => `${job.action} ${job.repository} for ${job.login}`,
    classify(raw) {
      const error = toGithubError(raw);
      return {
        message: error.message,
        retryable: error.retryable,
        // A rate limit waits as long as GitHub asked (a second more for clocks).
        retryAfterSeconds: error.retryAfterSeconds === undefined ? undefined : Math.ceil(error.retryAfterSeconds) + 1,
        // An expected outcome, not a bug: GitHub's answer without a stack.
        logged: { status: error.status, answer: error.message },
      };
    },
  };
}

/** Every job of a batch at once: the claim never hands out two of one repository and account. */
const running = (options: JobOptions) => ({
  batch: options.batch ?? 10,
  concurrency: options.batch ?? 10,
  backoff: options.retryDelay ?? retryDelaySeconds,
  maxAttempts: MAX_ATTEMPTS,
});

/** Runs the due jobs once; answers how many it claimed (finished or put back for a retry). */
export async function runDueGithubJobs(
  db: Reader,
  github: GithubRepositories,
  log: Log,
  options: JobOptions = {},
): Promise<number> {
  return (await runJobRound(githubQueue(db, github, log), running(options), log)).claimed;
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
  return startJobRunner(
    githubQueue(db, github, log),
    { ...running(options), intervalMs: options.intervalMs ?? 1000 },
    log,
  );
}
export type GithubWorker = ReturnType<typeof startGithubWorker>;
