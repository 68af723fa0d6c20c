import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingOrderEvents } from '../../bench/lib/webhooks.ts';
import { type Stack, startStack } from '../../scripts/stack/stack.ts';
import { createUser, grantKits } from '../factories/users.ts';
import { startSmtpServer } from '../setup/smtp.ts';

/**
 * `npm run stack` as a visitor meets it: nginx in front of two instances under /shop, on one
 * PostgreSQL (STACK_DATABASE_URL, or an embedded one) and one S3 bucket, TRUST_PROXY set.
 */
const PORT = Number(process.env.STACK_TEST_PORT ?? 4650);
const TOKEN = 'stack-metrics-token-0123456789';
const SECRET = 'stack-test-session-secret-0123456789abcdef';
let stack: Stack;
let db: pg.Pool;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request through nginx (or straight to an instance with `base`), on kept-alive connections. */
function request(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; base?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${options.base ?? stack.url}${path}`,
      {
        method,
        agent,
        headers: {
          ...(options.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A visitor: cookies kept, the CSRF token from the page shell sent on every POST. */
async function visitor(forwardedFor?: string) {
  const jar = new Map<string, string>();
  let csrf = '';
  const headers = () => ({
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': csrf,
    ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
  });
  const keep = (answer: Answer) => {
    for (const line of answer.headers['set-cookie'] ?? []) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (value) jar.set(name!, value);
      else jar.delete(name!);
    }
    return answer;
  };
  const page = keep(await request('GET', '/', { headers: headers() }));
  csrf = JSON.parse(/<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(page.body)![1]!).csrf;
  return {
    get: async (path: string) => keep(await request('GET', path, { headers: headers() })),
    post: async (path: string, body: unknown = {}) =>
      keep(await request('POST', path, { headers: headers(), body: JSON.stringify(body) })),
  };
}

/** Requests each instance has answered, from its own metrics. */
async function answeredBy(): Promise<number[]> {
  return Promise.all(
    stack.instances.map(async (instance) => {
      const res = await request('GET', '/metrics', {
        base: `http://127.0.0.1:${instance.port}/shop`,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status).toBe(200);
      return res.body
        .split('\n')
        .filter((l) => l.startsWith('kitshop_http_request_duration_seconds_count{'))
        .reduce((sum, l) => sum + Number(l.split(' ')[1]), 0);
    }),
  );
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  stack = await startStack({
    port: PORT,
    databaseUrl: process.env.STACK_DATABASE_URL || undefined,
    quiet: false,
    env: { METRICS_TOKEN: TOKEN, SESSION_SECRET: SECRET, SMTP_URL: smtp.url },
  });
  db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
});
afterAll(async () => {
  agent.destroy();
  await db?.end();
  await stack?.stop();
  await smtp?.stop();
});

describe('two instances behind nginx', () => {
  it('imported the catalog once when both started at once on the empty database', async () => {
    const { rows } = await db.query(
      'SELECT count(*)::int AS kits, (SELECT count(*)::int FROM kit_versions) AS versions FROM kits',
    );
    expect(rows[0].kits).toBeGreaterThan(0);
    expect(rows[0].versions).toBe(rows[0].kits);
    const products = await request('POST', '/api/products', { body: '{}' });
    expect(products.status).toBe(200);
    expect(JSON.parse(products.body).length).toBe(rows[0].kits);
  });

  it('alternates requests between the instances, each answer with its X-Request-Id, /metrics not public', async () => {
    const before = await answeredBy();
    const ids = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const res = await request('GET', '/healthz');
      expect(res.status).toBe(200);
      ids.add(String(res.headers['x-request-id']));
    }
    expect(ids.size).toBe(10);
    const after = await answeredBy();
    // Each scrape is a request too: both instances took a share of the ten.
    for (const [i, count] of after.entries()) expect(count - before[i]! - 1).toBeGreaterThanOrEqual(3);
    expect((await request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('keeps a session, its CSRF token and downloads from the bucket whichever instance answers', async () => {
    const user = await createUser(db);
    const { rows: kits } = await db.query(
      'SELECT k.id, v.sha256 FROM kits k JOIN kit_versions v ON v.kit_id = k.id ORDER BY k.position LIMIT 1',
    );
    await grantKits(db, user.id, [kits[0].id]);
    const browser = await visitor();
    const login = await browser.post('/api/login', { email: user.email, password: user.password });
    expect(login.status).toBe(200);
    for (let i = 0; i < 4; i++) {
      const purchases = await browser.post('/api/purchases');
      expect(purchases.status).toBe(200);
      expect(purchases.body).toContain(`"id":${kits[0].id}`);
    }
    const download = await browser.get(`/download/${kits[0].id}`);
    expect(download.status).toBe(302);
    expect(download.headers.location).toContain(stack.s3.endpoint);
    const archive = await fetch(download.headers.location!);
    expect(archive.status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(await archive.arrayBuffer()))
        .digest('hex'),
    ).toBe(kits[0].sha256);
  });

  it("counts sign-in failures per client address from nginx's X-Forwarded-For, across both instances", async () => {
    const user = await createUser(db);
    const attempt = async (client: Awaited<ReturnType<typeof visitor>>) =>
      (await client.post('/api/login', { email: user.email, password: 'not-the-password' })).status;
    const first = await visitor('203.0.113.7');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await attempt(first));
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    expect(statuses[5]).toBe(429);
    // Another client behind the same proxy has its own count.
    expect(await attempt(await visitor('203.0.113.8'))).not.toBe(429);
  });

  it('sends each mail once, whichever instance queued it', async () => {
    const already = smtp.received.length;
    const addresses = Array.from({ length: 4 }, (_, i) => `stack-${process.pid}-${i}@example.com`);
    for (const [i, email] of addresses.entries()) {
      const client = await visitor(`198.51.100.${i + 1}`);
      const res = await client.post('/api/register', {
        name: 'Margaret Hamilton',
        email,
        password: 'apollo-guidance-1969',
      });
      expect(res.status, res.body).toBe(200);
    }
    await expect.poll(() => smtp.received.length - already, { timeout: 15_000 }).toBe(addresses.length);
    // Each mail marked sent after one claim: a claimed or sent row is nobody else's, so no instance
    // can send one of them again (no waiting for a second copy that cannot come).
    await expect
      .poll(
        async () =>
          (
            await db.query(
              `SELECT count(*)::int AS mails, count(*) FILTER (WHERE sent_at IS NULL)::int AS unsent,
                      max(attempts)::int AS claims FROM mail_outbox WHERE "to" = ANY($1)`,
              [addresses],
            )
          ).rows[0],
        { timeout: 15_000 },
      )
      .toEqual({ mails: addresses.length, unsent: 0, claims: 1 });
    const recipients = smtp.received.slice(already).flatMap((m) => m.to);
    expect(recipients.sort()).toEqual([...addresses].sort());
  });
});

describe('rolling restart', () => {
  it('loses no request while each instance in turn is stopped with SIGTERM and started again', async () => {
    const user = await createUser(db);
    const browser = await visitor();
    expect((await browser.post('/api/login', { email: user.email, password: user.password })).status).toBe(200);
    const events = await pendingOrderEvents(db, SECRET, `rr${process.pid}`, 40);
    const failures: string[] = [];
    const counts = { requests: 0, webhooks: 0 };
    let running = true;
    const work = [
      () => browser.get('/'),
      () => browser.post('/api/purchases'),
      () => request('POST', '/api/products', { body: '{}' }),
      () => request('GET', '/healthz'),
    ];
    const worker = async (n: number) => {
      for (let i = n; running; i++) {
        try {
          const res = await work[i % work.length]!();
          if (res.status !== 200) failures.push(`${new Date().toISOString()} ${res.status} ${res.body.slice(0, 60)}`);
        } catch (error) {
          failures.push(String(error));
        }
        counts.requests++;
      }
    };
    // Payments arrive all along: one order's event every 100 ms or so, each delivered twice.
    const payments = async () => {
      for (const event of events) {
        if (!running) break;
        for (let twice = 0; twice < 2; twice++) {
          const res = await request('POST', '/api/webhooks/paddle', {
            body: event.body,
            headers: { 'paddle-signature': event.sign() },
          }).catch((error) => ({ status: 0, body: String(error) }));
          if (res.status !== 200) failures.push(`webhook ${res.status} ${res.body.slice(0, 120)}`);
          counts.webhooks++;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const load = Promise.all([...Array.from({ length: 6 }, (_, n) => worker(n)), payments()]);
    /** Until the load has had this many more answers: requests before, between and after the restarts. */
    const answered = async (more: number) => {
      const target = counts.requests + more;
      await expect.poll(() => counts.requests, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(target);
    };
    const exitCodes: (number | null)[] = [];
    await answered(40);
    for (const index of [0, 1]) {
      exitCodes.push(await stack.stopInstance(index));
      await stack.startInstance(index);
      await answered(40);
    }
    running = false;
    await load;
    if (failures.length > 0) {
      console.log(failures.slice(0, 5));
      console.log(readFileSync(path.join(stack.dir, 'nginx/error.log'), 'utf8').split('\n').slice(-40).join('\n'));
    }
    expect(exitCodes).toEqual([0, 0]);
    expect(failures).toEqual([]);
    expect(counts.requests).toBeGreaterThan(100);
    const { rows } = await db.query(
      `SELECT count(*) FILTER (WHERE status = 'paid')::int AS paid, count(*)::int AS all FROM orders WHERE public_id LIKE $1`,
      [`ord_rr${process.pid}_%`],
    );
    const delivered = counts.webhooks / 2;
    expect(rows[0].paid).toBe(delivered);
    console.log(
      `rolling restart: ${counts.requests} requests and ${counts.webhooks} webhook deliveries, 0 failed; ${delivered} orders paid`,
    );
  });
});
