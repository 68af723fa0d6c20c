/**
 * The one runner for the shop's durable jobs (mail, GitHub access, and whatever queue comes next;
 * decision 016). A queue is a table its module owns; the module hands the runner what it does with
 * that table, and the runner does the rest the same way for every queue:
 *
 * - a round claims a batch in one committed statement (the module's `claim`: FOR UPDATE SKIP LOCKED,
 *   the attempt counted, due again only after a lease should this process die mid-job), so no
 *   transaction stays open across the outside call and two instances never take the same job;
 * - rounds run one at a time per process; a full batch that went through starts the next at once;
 * - `concurrency` jobs of a batch run at once, started in claim order;
 * - a failure is put back after the backoff (or the wait the peer asked for), or marked failed once
 *   it is final or `maxAttempts` is reached;
 * - wake-ups: a poll every `intervalMs` on every instance, and `nudge()` from the instance that
 *   just queued work, at once or after a quiet moment;
 * - `stop()` claims nothing more and resolves once the jobs under way are recorded.
 */

type Log = { info: (msg: string) => void; warn: (obj: object, msg: string) => void };

/** What the runner needs to know of a claimed job: the attempt it is on (counted by the claim). */
export type ClaimedJob = { attempts: number };

/** A job's failure as the owning module reads it. */
export type JobFailure = {
  /** Kept with the job for whoever looks (the owner console). */
  message: string;
  /** False: trying again cannot help (a refusal); the job is marked failed at once. */
  retryable: boolean;
  /** The peer said when to come back (a rate limit): used instead of the backoff. */
  retryAfterSeconds?: number;
  /** Logged instead of the error: an expected answer is logged without a stack. */
  logged?: object;
};

export type JobQueue<J extends ClaimedJob> = {
  /** Names the queue in logs and metrics. */
  name: string;
  /** Claims up to `limit` due jobs in one committed statement, counting each one's attempt. */
  claim(limit: number): Promise<J[]>;
  /** Does the job and records that it is done; throws to fail. */
  perform(job: J): Promise<void>;
  /** Puts the job back, due again in `delaySeconds`. */
  retry(job: J, delaySeconds: number, error: string): Promise<void>;
  /** Records the job as failed for good; a queue without it retries every failure. */
  fail?(job: J, error: string): Promise<void>;
  /** The job in a log line. */
  describe(job: J): string;
  /** Reads a thrown error; without it, every error is retryable and its message is kept. */
  classify?(error: unknown): JobFailure;
};

export type JobRunnerOptions = {
  batch: number;
  /** How many jobs of a batch run at once; 1 runs them one after the other in claim order. */
  concurrency: number;
  /** Seconds to wait after a failed attempt (`attempts` counts it). */
  backoff: (attempts: number) => number;
  /** After this many attempts a retryable failure is final too (needs the queue's `fail`). */
  maxAttempts?: number;
  /**
   * A failure says the peer is down (an SMTP server): the batch's jobs not started yet are put back
   * with it rather than tried against it one by one.
   */
  stopBatchOnFailure?: boolean;
};

/** 5 s, 10 s, 20 s ... doubling from `firstSeconds` up to `maxSeconds`. */
export const exponentialBackoff = (firstSeconds: number, maxSeconds: number) => (attempts: number) =>
  Math.min(firstSeconds * 2 ** Math.max(0, attempts - 1), maxSeconds);

/** What the runner has done since it started, for the metrics. */
export type JobCounts = { completed: number; retried: number; failed: number };

export type JobRound = { claimed: number; completed: number; cutShort: boolean };

const message = (error: unknown) => String((error as Error)?.message ?? error).slice(0, 500);

/**
 * One round: claims a batch and runs it. Answers how many jobs were claimed and completed, and
 * whether a failure cut the batch short. A failure to record an outcome is thrown once every job
 * started has finished.
 */
export async function runJobRound<J extends ClaimedJob>(
  queue: JobQueue<J>,
  options: JobRunnerOptions,
  log: Log,
  counts: JobCounts = { completed: 0, retried: 0, failed: 0 },
): Promise<JobRound> {
  const jobs = await queue.claim(options.batch);
  let next = 0;
  let completed = 0;
  let cutShort: { error: string } | undefined;

  const settle = async (job: J, error: unknown) => {
    const failure = queue.classify?.(error) ?? { message: message(error), retryable: true };
    const final =
      queue.fail !== undefined &&
      (!failure.retryable || (options.maxAttempts !== undefined && job.attempts >= options.maxAttempts));
    const logged = failure.logged ?? { err: error };
    if (final) {
      await queue.fail!(job, failure.message);
      counts.failed++;
      log.warn(logged, `${queue.name}: ${queue.describe(job)} failed for good (attempt ${job.attempts})`);
      return;
    }
    const delay = failure.retryAfterSeconds ?? options.backoff(job.attempts);
    await queue.retry(job, delay, failure.message);
    counts.retried++;
    log.warn(logged, `${queue.name}: ${queue.describe(job)} failed (attempt ${job.attempts}); retrying in ${delay} s`);
    if (options.stopBatchOnFailure) cutShort ??= { error: failure.message };
  };

  const lane = async () => {
    while (next < jobs.length && !cutShort) {
      const job = jobs[next++]!;
      try {
        await queue.perform(job);
      } catch (error) {
        await settle(job, error);
        continue;
      }
      completed++;
      counts.completed++;
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(options.concurrency, jobs.length) }, lane));
  const broken = lanes.find((lane) => lane.status === 'rejected');
  if (broken) throw broken.reason;

  if (cutShort) {
    const rest = jobs.slice(next);
    for (const job of rest) await queue.retry(job, options.backoff(job.attempts), cutShort.error);
    counts.retried += rest.length;
    if (rest.length > 0) log.warn({}, `${queue.name}: ${rest.length} more put back with it`);
  }
  return { claimed: jobs.length, completed, cutShort: cutShort !== undefined };
}

export type WorkerOptions = JobRunnerOptions & {
  /** Every instance looks for due jobs this often. */
  intervalMs: number;
  /**
   * Without it, a nudge starts a round at once. With it, a round starts `quietMs` after the last
   * nudge, and never later than `maxWaitMs` after the first: a burst is handled in one round.
   */
  gather?: { quietMs: number; maxWaitMs: number };
};

/** Runs the queue's rounds in the background until `stop()`. */
export function startJobRunner<J extends ClaimedJob>(queue: JobQueue<J>, options: WorkerOptions, log: Log) {
  const counts: JobCounts = { completed: 0, retried: 0, failed: 0 };
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const rounds = async () => {
    do {
      again = false;
      try {
        const round = await runJobRound(queue, options, log, counts);
        // A full batch that went through: there may be more waiting.
        if (round.claimed >= options.batch && !round.cutShort) again = true;
      } catch (error) {
        log.warn({ err: error }, `${queue.name}: job round failed`);
      }
    } while (again && !stopped);
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = rounds().finally(() => {
      running = undefined;
    });
  };

  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  let gathering: NodeJS.Timeout | undefined;
  let firstNudge = 0;
  const nudge = () => {
    if (!options.gather) return run();
    const { quietMs, maxWaitMs } = options.gather;
    const now = Date.now();
    if (!gathering) firstNudge = now;
    clearTimeout(gathering);
    gathering = setTimeout(
      () => {
        gathering = undefined;
        run();
      },
      Math.max(0, Math.min(quietMs, firstNudge + maxWaitMs - now)),
    );
  };

  return {
    /** Work was queued: look for it now (or after a quiet moment, see `gather`). */
    nudge,
    /** The jobs finished, put back and failed by this runner so far. */
    counts: (): JobCounts => ({ ...counts }),
    /** Claims nothing more; resolves once the round under way has recorded its jobs. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(gathering);
      await running;
    },
  };
}
export type JobRunner = ReturnType<typeof startJobRunner>;
