import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { sandboxTransactionCompleted, sandboxWebhookSecret } from '../../src/server/integrations/payments/sandbox.ts';
import { signPaddleBody } from '../../src/server/integrations/payments/signature.ts';

export const ORDERS = 100;

export type WebhookFigures = {
  deliveries: number;
  p99Ms: number;
  p50Ms: number;
  /** The p99 of the burst before, on a server that had not met one yet. */
  coldP99Ms: number;
  /** 5xx answers of both bursts. */
  fiveXx: number;
  paidOrders: number;
  entitlements: number;
  statuses: Record<string, number>;
  /** CPU seconds each watched process used from the first delivery to the last answer. */
  cpu: Record<string, number>;
};

/**
 * The bytes of one delivery as a sender puts them on the wire: an HTTP/1.1 POST that closes its
 * connection after the answer (what node:http sends without an agent).
 */
function deliveryBytes(url: URL, body: string, signature: string): Buffer {
  return Buffer.from(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nPaddle-Signature: ${signature}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * One delivery on its own new connection, as separate senders make them: answers its status and
 * the time from opening the connection to the end of the answer. Raw sockets with the request's
 * bytes made beforehand: the sender shares the machine's two cores with the server, and node:http
 * costs it twice the CPU per request (fetch several times), all of it counted in the latencies of
 * the deliveries it is still sending or reading.
 */
function deliver(url: URL, request: Buffer): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let head = '';
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(request));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      if (head.length < 12) head += chunk;
    });
    // The server closes the connection once it has answered (Connection: close).
    socket.on('end', () => {
      const ms = performance.now() - started;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      if (status) resolve({ status: Number(status), ms });
      else reject(new Error(`not an HTTP answer: ${JSON.stringify(head.slice(0, 40))}`));
    });
    socket.on('error', reject);
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** nginx's (single) worker process of a stack (scripts/stack): the child of the master in `{dir}/nginx/nginx.pid`. */
export function nginxWorkerPid(stackDir: string): number {
  const master = readFileSync(path.join(stackDir, 'nginx/nginx.pid'), 'utf8').trim();
  return Number(readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(' ')[0]);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

export type BenchKit = { id: number; price_cents: number; paddle_price_id: string };

/** One pending order of one kit for a buyer, and its `transaction.completed`, signed when `sign()` is called. */
export async function pendingOrderEvent(
  db: pg.Client | pg.Pool,
  kit: BenchKit,
  userId: number,
  publicId: string,
  secret: string,
) {
  const { rows } = await db.query(
    `INSERT INTO orders (public_id, user_id, total_cents, items_key) VALUES ($1, $2, $3, $4) RETURNING id`,
    [publicId, userId, kit.price_cents, String(kit.id)],
  );
  await db.query(
    `INSERT INTO order_items (order_id, kit_id, title, price_cents, list_price_cents, paddle_price_id) VALUES ($1, $2, 'bench', $3, $3, $4)`,
    [rows[0].id, kit.id, kit.price_cents, kit.paddle_price_id],
  );
  const body = JSON.stringify(
    sandboxTransactionCompleted({
      publicId,
      userId,
      items: [{ kitId: kit.id, paddlePriceId: kit.paddle_price_id, priceCents: kit.price_cents }],
    }),
  );
  return { publicId, body, sign: () => signPaddleBody(body, secret) };
}

/**
 * `count` pending orders of as many new buyers (emails `{tag}-N@example.com`, orders `ord_{tag}_N`),
 * each with its `transaction.completed` event, signed the way the sandbox (and Paddle) signs it
 * when `sign()` is called (the signature's timestamp must be within 5 s of the server clock).
 */
export async function pendingOrderEvents(db: pg.Client | pg.Pool, sessionSecret: string, tag: string, count: number) {
  const { rows: kits } = await db.query(
    'SELECT id, price_cents, paddle_price_id FROM kits WHERE active ORDER BY position LIMIT 1',
  );
  const kit = kits[0];
  const { rows: users } = await db.query(
    `INSERT INTO users (name, email, email_verified_at)
     SELECT 'Webhook buyer ' || n, '${tag}-' || n || '@example.com', now() FROM generate_series(1, ${count}) n RETURNING id`,
  );
  const secret = sandboxWebhookSecret(sessionSecret);
  const events: { publicId: string; body: string; sign: () => string }[] = [];
  for (const [i, user] of users.entries()) {
    events.push(await pendingOrderEvent(db, kit, user.id, `ord_${tag}_${i}`, secret));
  }
  return events;
}

/** A burst's requests: `count` new orders' events, each twice, signed and encoded before any leaves. */
async function burstRequests(db: pg.Client, url: URL, sessionSecret: string, tag: string, count: number) {
  const bodies = await pendingOrderEvents(db, sessionSecret, tag, count);
  return [...bodies, ...bodies].map(({ body, sign }) => deliveryBytes(url, body, sign()));
}

/** Sends every request at once; answers each one's status and latency. */
const deliverAll = (url: URL, requests: Buffer[]) => Promise.all(requests.map((request) => deliver(url, request)));

/** Waits until the outbox holds no unsent mail (the mail of a burst goes out soon after it). */
async function outboxDrained(db: pg.Client, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query('SELECT count(*)::int AS n FROM mail_outbox WHERE sent_at IS NULL');
    if (rows[0].n === 0) return;
    if (Date.now() > until) throw new Error(`${rows[0].n} mails still unsent after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * 100 pending orders of 100 buyers, then each order's `transaction.completed` delivered twice,
 * all 200 at once, signed the way the sandbox (and Paddle) signs them. Each latency runs from
 * opening the delivery's connection to the end of its answer; the requests are signed and
 * encoded before the first one leaves. `processes` (name: pid) are the processes whose CPU
 * seconds during the burst are reported (the server, nginx, this process as `client`).
 *
 * The measured burst meets a running shop, as a launch or a sale does: it follows one burst of
 * the same shape on other orders (its p99 reported as `coldP99Ms`, code paths not yet compiled
 * by V8 on a server just started), once that burst's mail has gone out.
 */
export async function measureWebhooks(
  baseUrl: string,
  databaseUrl: string,
  sessionSecret: string,
  /** Names this run's buyers and orders apart from another run's on the same database. */
  tag = `wh${process.pid}`,
  processes: Record<string, number> = {},
): Promise<WebhookFigures> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const url = new URL(`${baseUrl}/api/webhooks/paddle`);
    const first = await deliverAll(url, await burstRequests(db, url, sessionSecret, `warm${tag}`, ORDERS));
    await outboxDrained(db);
    const requests = await burstRequests(db, url, sessionSecret, tag, ORDERS);
    const watched = { ...processes, client: process.pid };
    const cpuBefore = Object.entries(watched).map(([name, pid]) => [name, pid, cpuSeconds(pid)] as const);
    const answers = await deliverAll(url, requests);
    const cpu = Object.fromEntries(cpuBefore.map(([name, pid, before]) => [name, cpuSeconds(pid) - before]));
    const latencies = answers.map((a) => a.ms);
    const statuses: Record<string, number> = {};
    for (const { status } of [...first, ...answers]) statuses[status] = (statuses[status] ?? 0) + 1;
    const paid = await db.query(`SELECT count(*)::int AS n FROM orders WHERE public_id LIKE $1 AND status = 'paid'`, [
      `ord_${tag}_%`,
    ]);
    const owned = await db.query(
      `SELECT count(*)::int AS n FROM entitlements e JOIN users u ON u.id = e.user_id WHERE u.email LIKE $1 AND e.revoked_at IS NULL`,
      [`${tag}-%`],
    );
    return {
      deliveries: requests.length,
      p99Ms: Math.round(percentile(latencies, 99)),
      p50Ms: Math.round(percentile(latencies, 50)),
      coldP99Ms: Math.round(
        percentile(
          first.map((a) => a.ms),
          99,
        ),
      ),
      fiveXx: Object.entries(statuses)
        .filter(([s]) => s.startsWith('5'))
        .reduce((sum, [, n]) => sum + n, 0),
      paidOrders: paid.rows[0].n,
      entitlements: owned.rows[0].n,
      statuses,
      cpu,
    };
  } finally {
    await db.end();
  }
}
