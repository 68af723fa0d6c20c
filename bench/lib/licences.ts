import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { hashLicenceKey, keyTail, newLicenceKey } from '../../src/server/modules/licences/licence-key.ts';

/** Kits' tooling validating at once: one call per licence, all in flight together. */
export const VALIDATIONS = 200;
const ROUNDS = 5;

export type LicenceFigures = {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  calls: number;
  failures: number;
  /** The same rounds against `GET /healthz` (no database), measured between them: the machine's share. */
  healthP99Ms: number;
  /** The same rounds against a bare Fastify hello-world (bench/hello.mjs): this harness's floor. */
  helloP99Ms: number | null;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * 200 licences (a buyer and an entitlement each, the key written as the shop writes it: its hash
 * and a sealed copy the API never opens), then rounds of 200 validate calls at once, each on its
 * own connection as 200 separate machines would be; the latency of each call from its request to
 * the end of its answer.
 */
export async function measureLicenceValidation(
  baseUrl: string,
  databaseUrl: string,
  helloUrl?: string,
): Promise<LicenceFigures> {
  const keys = Array.from({ length: VALIDATIONS }, newLicenceKey);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: kits } = await db.query('SELECT id FROM kits WHERE active ORDER BY position LIMIT 1');
    await db.query(
      `WITH buyers AS (
         INSERT INTO users (name, email, email_verified_at)
         SELECT 'Bench licence ' || i, 'bench-licence-' || i || '-' || $2::text || '@example.com', now()
           FROM generate_series(1, $3::int) AS i RETURNING id, name),
       owned AS (
         INSERT INTO entitlements (user_id, kit_id, source) SELECT id, $1, 'grant' FROM buyers
         RETURNING id, user_id, kit_id),
       numbered AS (
         SELECT o.*, row_number() OVER (ORDER BY o.id) AS n FROM owned o)
       INSERT INTO licence_keys (entitlement_id, user_id, kit_id, key_hash, key_sealed, key_tail)
       SELECT n.id, n.user_id, n.kit_id, k.hash, 'bench', k.tail
         FROM numbered n JOIN unnest($4::text[], $5::text[]) WITH ORDINALITY AS k(hash, tail, i) ON k.i = n.n`,
      [kits[0].id, String(process.pid), VALIDATIONS, keys.map(hashLicenceKey), keys.map(keyTail)],
    );
  } finally {
    await db.end();
  }

  const url = new URL(`${baseUrl}/api/v1/licenses/validate`);
  const health = new URL(`${baseUrl}/healthz`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: VALIDATIONS });
  const validate = (key: string) => send(url, JSON.stringify({ license_key: key }), '"valid":true');
  const send = (target: URL, body: string | null, expected: string) =>
    new Promise<{ ms: number; ok: boolean }>((resolve) => {
      const started = performance.now();
      const request = http.request(
        target,
        body === null
          ? { method: 'GET', agent }
          : { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          let text = '';
          res.on('data', (part) => {
            text += part;
          });
          res.on('end', () =>
            resolve({ ms: performance.now() - started, ok: res.statusCode === 200 && text.includes(expected) }),
          );
        },
      );
      request.on('error', () => resolve({ ms: performance.now() - started, ok: false }));
      request.end(body ?? undefined);
    });

  try {
    // Warm-up: the connections open and the server's code paths are compiled before the timing.
    await Promise.all(keys.map(validate));
    const hello = helloUrl ? new URL(`${helloUrl}/`) : null;
    if (hello) await Promise.all(keys.map(() => send(hello, null, 'hello')));
    const samples: number[] = [];
    const healthSamples: number[] = [];
    const helloSamples: number[] = [];
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const result of await Promise.all(keys.map(validate))) {
        samples.push(result.ms);
        if (!result.ok) failures++;
      }
      for (const result of await Promise.all(keys.map(() => send(health, null, 'ok')))) healthSamples.push(result.ms);
      if (hello)
        for (const result of await Promise.all(keys.map(() => send(hello, null, 'hello'))))
          helloSamples.push(result.ms);
    }
    for (const list of [samples, healthSamples, helloSamples]) list.sort((a, b) => a - b);
    return {
      p50Ms: percentile(samples, 50),
      p99Ms: percentile(samples, 99),
      maxMs: samples[samples.length - 1]!,
      calls: samples.length,
      failures,
      healthP99Ms: percentile(healthSamples, 99),
      helloP99Ms: helloSamples.length ? percentile(helloSamples, 99) : null,
    };
  } finally {
    agent.destroy();
  }
}
