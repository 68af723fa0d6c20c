import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { visit } from './signin.ts';

export const RESETS_PER_SECOND = 100;
const SECONDS = 10;
const STATIC_RATE = 100;

export type ResetFloodFigures = {
  /** A static file's latency on its own, then while the resets arrive. */
  quietP99Ms: number;
  floodP99Ms: number;
  floodP50Ms: number;
  staticRequests: number;
  staticErrors: number;
  /** What the resets were answered: 200 (hashed and changed) or 429 (the hashing queue was full). */
  statuses: Record<string, number>;
  resetP99Ms: number;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

async function probeStatic(url: string) {
  const result = await autocannon({ url, connections: 4, overallRate: STATIC_RATE, duration: SECONDS, timeout: 5 });
  return {
    p99: result.latency.p99,
    p50: result.latency.p50,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * The outside probe's flood: 100 password resets a second while a static file is fetched 100 times a
 * second. With `made-up` links (the probe's) each reset costs a lookup; with `live` ones, the
 * worst case, each needs an argon2 hash and the hashing queue is what keeps files fast. The server runs with RATE_LIMITS=off (one address would
 * otherwise be refused after 20 resets): what is measured is the hashing queue alone.
 */
export async function measureResetFlood(
  baseUrl: string,
  databaseUrl: string,
  staticPath: string,
  links: 'live' | 'made-up',
) {
  const count = RESETS_PER_SECOND * SECONDS;
  const prefix = `bench-reset-${process.pid}-${Date.now()}-`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: number; email: string }>(
      `INSERT INTO users (name, email, password_hash, email_verified_at)
       SELECT 'Reset ' || i, $1 || i || '@example.com', 'not-a-hash', now() FROM generate_series(1, $2::int) i
       RETURNING id, email`,
      [prefix, count],
    );
    await db.query(
      `INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at)
       SELECT unnest($1::int[]), 'reset', unnest($2::text[]), now() + interval '1 hour'`,
      [rows.map((r) => r.id), rows.map((r) => createHash('sha256').update(`link-${r.email}`).digest('hex'))],
    );
    const resets = rows.map((r) => ({ email: r.email, token: links === 'live' ? `link-${r.email}` : 'made-up' }));
    const staticUrl = `${baseUrl}${staticPath}`;
    const quiet = await probeStatic(staticUrl);
    const browser = await visit(baseUrl);
    const statuses: Record<string, number> = {};
    const resetLatencies: number[] = [];
    const sent: Promise<void>[] = [];
    const probe = probeStatic(staticUrl);
    const started = performance.now();
    for (let i = 0; i < resets.length; i++) {
      // Paced on the clock, not on answers: the requests keep arriving however slow the server gets.
      const due = started + (i * 1000) / RESETS_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const { email, token } = resets[i]!;
      const sentAt = performance.now();
      sent.push(
        fetch(`${baseUrl}/api/reset-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': browser.csrf, cookie: browser.cookie },
          body: JSON.stringify({
            token,
            email,
            password: 'bench-new-password-42',
            password_confirmation: 'bench-new-password-42',
          }),
          signal: AbortSignal.timeout(30_000),
        }).then(
          async (res) => {
            await res.arrayBuffer();
            resetLatencies.push(performance.now() - sentAt);
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          },
          () => {
            statuses.error = (statuses.error ?? 0) + 1;
          },
        ),
      );
    }
    const flood = await probe;
    await Promise.all(sent);
    return {
      quietP99Ms: quiet.p99,
      floodP99Ms: flood.p99,
      floodP50Ms: flood.p50,
      staticRequests: flood.requests,
      staticErrors: flood.errors,
      statuses,
      resetP99Ms: Math.round(percentile(resetLatencies, 99)),
    } satisfies ResetFloodFigures;
  } finally {
    await db.end();
  }
}
