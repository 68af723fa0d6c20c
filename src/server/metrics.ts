import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Reader } from './db/open.ts';
import { AppError } from './http/errors.ts';
import { outboxBacklog } from './integrations/mail/outbox.ts';
import type { JobCounts } from './lib/job-runner.ts';

/**
 * The server's Prometheus metrics (prom-client), one registry per server. Built only when
 * METRICS_TOKEN is set: `GET {base}/metrics` answers the scrape that sends that token.
 */
export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(sources: {
  db: Reader;
  pool: pg.Pool;
  /** The catalog cache's lookups so far (the catalog counts them). */
  catalogLookups: () => { hits: number; misses: number };
  /** What each job runner did so far, by queue (mail, github). */
  jobCounts?: () => Record<string, JobCounts>;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'kitshop_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const paymentEvents = new Counter({
    name: 'kitshop_payment_events_total',
    help: 'Payment webhook deliveries by outcome (rejected: bad signature or body).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Counter({
    name: 'kitshop_catalog_cache_lookups_total',
    help: 'Catalog reads answered from the in-memory copy (hit) or from the database (miss).',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      const { hits, misses } = sources.catalogLookups();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
  new Counter({
    name: 'kitshop_jobs_total',
    help: 'Background jobs run by this instance, by queue and outcome (retried: put back for a later attempt).',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [queue, counts] of Object.entries(sources.jobCounts?.() ?? {}))
        for (const [outcome, count] of Object.entries(counts)) this.inc({ queue, outcome }, count);
    },
  });
  new Gauge({
    name: 'kitshop_db_pool_connections',
    help: 'Database pool connections: total open, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, sources.pool.totalCount);
      this.set({ state: 'idle' }, sources.pool.idleCount);
      this.set({ state: 'waiting' }, sources.pool.waitingCount);
    },
  });
  // The mail outbox is the shop's job queue: every instance works it (FOR UPDATE SKIP LOCKED).
  const backlog = () => outboxBacklog(sources.db);
  let reading: ReturnType<typeof backlog> | undefined;
  const once = () => {
    reading ??= backlog().finally(() => {
      reading = undefined;
    });
    return reading;
  };
  new Gauge({
    name: 'kitshop_outbox_depth',
    help: 'Mails queued and not sent yet (every instance).',
    registers: [registry],
    async collect() {
      this.set((await once()).depth);
    },
  });
  new Gauge({
    name: 'kitshop_outbox_oldest_age_seconds',
    help: 'Age of the oldest unsent mail (0 when none waits).',
    registers: [registry],
    async collect() {
      this.set((await once()).oldestAgeSeconds);
    },
  });
  return {
    registry,
    observeRequest(method: string, route: string, statusCode: number, seconds: number) {
      requests.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    countPaymentEvent(outcome: string) {
      paymentEvents.inc({ outcome });
    },
  };
}

/** Equal tokens, compared in constant time. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Times every request (labelled by its route pattern, never its raw URL, so the series stay few)
 * and serves `GET /metrics` to `Authorization: Bearer {token}`; anything else gets 401.
 */
export function registerMetrics(app: FastifyInstance, scope: FastifyInstance, metrics: Metrics, token: string) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  scope.get('/metrics', { config: { csrf: false }, compress: false }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given || !sameToken(given, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized', 'Send Authorization: Bearer with the METRICS_TOKEN.');
    }
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
