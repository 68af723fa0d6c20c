import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../../tests/setup/test-app.ts';
import type { Database } from '../db/open.ts';
import {
  type ClaimedJob,
  exponentialBackoff,
  type JobQueue,
  type JobRunnerOptions,
  runJobRound,
  startJobRunner,
} from './job-runner.ts';

const silent = { info: () => {}, warn: () => {} };
const options: JobRunnerOptions = { batch: 10, concurrency: 2, backoff: exponentialBackoff(5, 600) };

type Job = ClaimedJob & { id: number };

/**
 * A queue held in memory: claims what is due (attempt counted), and records what the runner asks.
 * `perform` is the test's.
 */
function memoryQueue(ids: number[], perform: (job: Job) => Promise<void>, final = true) {
  const jobs = ids.map((id) => ({ id, attempts: 0, dueAt: 0, state: 'queued' as 'queued' | 'done' | 'failed' }));
  const retries: { id: number; delay: number; error: string }[] = [];
  let now = 0;
  const queue: JobQueue<Job> = {
    name: 'probe',
    async claim(limit) {
      const due = jobs.filter((j) => j.state === 'queued' && j.dueAt <= now).slice(0, limit);
      for (const j of due) {
        j.attempts++;
        j.dueAt = now + 600;
      }
      return due.map((j) => ({ id: j.id, attempts: j.attempts }));
    },
    async perform(job) {
      await perform(job);
      jobs.find((j) => j.id === job.id)!.state = 'done';
    },
    async retry(job, delay, error) {
      retries.push({ id: job.id, delay, error });
      jobs.find((j) => j.id === job.id)!.dueAt = now + delay;
    },
    describe: (job) => `#${job.id}`,
  };
  if (final)
    queue.fail = async (job) => {
      jobs.find((j) => j.id === job.id)!.state = 'failed';
    };
  return {
    queue,
    jobs,
    retries,
    advance: (seconds: number) => {
      now += seconds;
    },
  };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('job rounds', () => {
  it('backs off from the first delay, doubling, up to the cap', () => {
    expect([1, 2, 3, 4, 8, 20].map(exponentialBackoff(5, 600))).toEqual([5, 10, 20, 40, 600, 600]);
  });

  it('puts a failing job back after the backoff, retries it when due, and marks it failed at the cap', async () => {
    const { queue, jobs, retries, advance } = memoryQueue([1], async () => {
      throw new Error('peer down');
    });
    const capped = { ...options, maxAttempts: 3 };
    expect(await runJobRound(queue, capped, silent)).toEqual({ claimed: 1, completed: 0, cutShort: false });
    expect(retries).toEqual([{ id: 1, delay: 5, error: 'peer down' }]);
    // Not due during its backoff.
    advance(4);
    expect((await runJobRound(queue, capped, silent)).claimed).toBe(0);
    advance(1);
    await runJobRound(queue, capped, silent);
    expect(retries.map((r) => r.delay)).toEqual([5, 10]);
    advance(10);
    await runJobRound(queue, capped, silent);
    expect(retries).toHaveLength(2);
    expect(jobs[0]).toMatchObject({ state: 'failed', attempts: 3 });
  });

  it('a failure that is no use retrying is marked failed at once; a queue without `fail` retries it', async () => {
    const refuse = async () => {
      throw new Error('refused');
    };
    const classify = () => ({ message: 'refused', retryable: false });
    const withFail = memoryQueue([1], refuse);
    await runJobRound({ ...withFail.queue, classify }, options, silent);
    expect(withFail.jobs[0]!.state).toBe('failed');
    expect(withFail.retries).toEqual([]);

    const withoutFail = memoryQueue([1], refuse, false);
    await runJobRound({ ...withoutFail.queue, classify }, options, silent);
    expect(withoutFail.jobs[0]!.state).toBe('queued');
    expect(withoutFail.retries).toEqual([{ id: 1, delay: 5, error: 'refused' }]);
  });

  it('waits as long as the peer asked rather than the backoff', async () => {
    const { queue, retries } = memoryQueue([1], async () => {
      throw new Error('slow down');
    });
    const classify = () => ({ message: 'slow down', retryable: true, retryAfterSeconds: 121 });
    await runJobRound({ ...queue, classify }, options, silent);
    expect(retries).toEqual([{ id: 1, delay: 121, error: 'slow down' }]);
  });

  it('runs at most `concurrency` jobs at once, started in claim order', async () => {
    let active = 0;
    let most = 0;
    const started: number[] = [];
    const { queue, jobs } = memoryQueue([1, 2, 3, 4, 5], async (job) => {
      started.push(job.id);
      most = Math.max(most, ++active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
    });
    expect(await runJobRound(queue, { ...options, concurrency: 2 }, silent)).toMatchObject({ completed: 5 });
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(jobs.every((j) => j.state === 'done')).toBe(true);
  });

  it('a failure that says the peer is down puts the rest of the batch back with it', async () => {
    const tried: number[] = [];
    const { queue, jobs, retries } = memoryQueue([1, 2, 3, 4], async (job) => {
      tried.push(job.id);
      if (job.id === 2) throw new Error('connection refused');
    });
    const round = await runJobRound(queue, { ...options, concurrency: 1, stopBatchOnFailure: true }, silent);
    expect(round).toEqual({ claimed: 4, completed: 1, cutShort: true });
    expect(tried).toEqual([1, 2]);
    expect(retries).toEqual([2, 3, 4].map((id) => ({ id, delay: 5, error: 'connection refused' })));
    expect(jobs.map((j) => j.state)).toEqual(['done', 'queued', 'queued', 'queued']);
  });
});

describe('a running job runner', () => {
  it('stop() claims nothing more and waits for the job under way to be recorded', async () => {
    const gate = deferred();
    const entered = deferred();
    const { queue, jobs } = memoryQueue([1, 2], async (job) => {
      if (job.id === 1) {
        entered.resolve();
        await gate.promise;
      }
    });
    const claim = vi.fn(queue.claim);
    const runner = startJobRunner(
      { ...queue, claim },
      { ...options, batch: 1, concurrency: 1, intervalMs: 60_000 },
      silent,
    );
    runner.nudge();
    await entered.promise;
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(jobs.map((j) => j.state)).toEqual(['done', 'queued']);
    // The full batch would have started another round; stopping ended that, and nudges do nothing.
    runner.nudge();
    await new Promise((r) => setTimeout(r, 10));
    expect(claim).toHaveBeenCalledTimes(1);
    expect(runner.counts()).toEqual({ completed: 1, retried: 0, failed: 0 });
  });

  it('a failing round is logged and the next nudge tries again', async () => {
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_: object, msg: string) => void warnings.push(msg) };
    let broken = true;
    const { queue, jobs } = memoryQueue([1], async () => {});
    const claim = async (limit: number) => {
      if (broken) throw new Error('database gone');
      return queue.claim(limit);
    };
    const runner = startJobRunner({ ...queue, claim }, { ...options, intervalMs: 60_000 }, log);
    runner.nudge();
    await vi.waitFor(() => expect(warnings).toEqual(['probe: job round failed']));
    broken = false;
    runner.nudge();
    await vi.waitFor(() => expect(jobs[0]!.state).toBe('done'));
    await runner.stop();
  });
});

describe('two runners on one table', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.pool.query(
      `CREATE TABLE probe_jobs (id serial PRIMARY KEY, done_by text[] NOT NULL DEFAULT '{}', attempts int NOT NULL DEFAULT 0,
                                next_attempt_at timestamptz NOT NULL DEFAULT now(), finished boolean NOT NULL DEFAULT false)`,
    );
  });
  afterAll(() => database.drop());

  /** A queue over probe_jobs claimed the way the shop's queues claim theirs. */
  const tableQueue = (db: Database, name: string): JobQueue<Job> => ({
    name,
    async claim(limit) {
      // The claim holds its rows a moment before committing, so the two runners' claims overlap.
      const { rows } = await db.execute<Job>(sql`
        WITH claimed AS (
          UPDATE probe_jobs SET attempts = attempts + 1, next_attempt_at = now() + interval '10 minutes'
           WHERE id IN (SELECT id FROM probe_jobs WHERE NOT finished AND next_attempt_at <= now()
                         ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING id, attempts)
        SELECT id, attempts, pg_sleep(0.01)::text FROM claimed`);
      return rows;
    },
    async perform(job) {
      await new Promise((r) => setTimeout(r, 2));
      await db.execute(
        sql`UPDATE probe_jobs SET finished = true, done_by = done_by || ${name}::text WHERE id = ${job.id}`,
      );
    },
    async retry(job, delay) {
      await db.execute(
        sql`UPDATE probe_jobs SET next_attempt_at = now() + make_interval(secs => ${delay}) WHERE id = ${job.id}`,
      );
    },
    describe: (job) => `#${job.id}`,
  });

  it('each job is claimed and done once, by one of them', async () => {
    await database.pool.query('INSERT INTO probe_jobs SELECT FROM generate_series(1, 60)');
    const runners = ['a', 'b'].map((name) =>
      startJobRunner(tableQueue(database.db, name), { ...options, batch: 5, intervalMs: 60_000 }, silent),
    );
    for (const runner of runners) runner.nudge();
    await vi.waitFor(
      async () => {
        const { rows } = await database.pool.query('SELECT count(*)::int AS n FROM probe_jobs WHERE NOT finished');
        expect(rows[0].n).toBe(0);
      },
      { timeout: 10_000 },
    );
    await Promise.all(runners.map((runner) => runner.stop()));
    const { rows } = await database.pool.query('SELECT done_by, attempts FROM probe_jobs ORDER BY id');
    expect(rows).toHaveLength(60);
    for (const row of rows) expect(row).toMatchObject({ done_by: [expect.stringMatching(/^[ab]$/)], attempts: 1 });
    // Both took part: the claim let them share the table rather than queue behind each other.
    expect(runners.map((runner) => runner.counts().completed).every((n) => n > 0)).toBe(true);
    expect(runners.reduce((sum, runner) => sum + runner.counts().completed, 0)).toBe(60);
  });
});
