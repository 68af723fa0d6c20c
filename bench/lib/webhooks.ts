import http from 'node:http';
import pg from 'pg';
import { sandboxTransactionCompleted, sandboxWebhookSecret } from '../../src/server/integrations/payments/sandbox.ts';
import { signPaddleBody } from '../../src/server/integrations/payments/signature.ts';

export const ORDERS = 100;

export type WebhookFigures = {
  deliveries: number;
  p99Ms: number;
  p50Ms: number;
  fiveXx: number;
  paidOrders: number;
  entitlements: number;
  statuses: Record<string, number>;
};

/**
 * One delivery on its own new connection, as separate senders make them. node:http rather than
 * fetch: the sender shares the machine's two cores with the server, and fetch costs it several
 * times the CPU per request.
 */
function deliver(url: string, body: string, signature: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'paddle-signature': signature,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
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

/**
 * 100 pending orders of 100 buyers, then each order's `transaction.completed` delivered twice,
 * all 200 at once, signed the way the sandbox (and Paddle) signs them.
 */
export async function measureWebhooks(
  baseUrl: string,
  databaseUrl: string,
  sessionSecret: string,
  /** Names this run's buyers and orders apart from another run's on the same database. */
  tag = `wh${process.pid}`,
): Promise<WebhookFigures> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const bodies = await pendingOrderEvents(db, sessionSecret, tag, ORDERS);
    const deliveries = [...bodies, ...bodies];
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    await Promise.all(
      deliveries.map(async ({ body, sign }) => {
        const started = performance.now();
        const status = await deliver(`${baseUrl}/api/webhooks/paddle`, body, sign());
        latencies.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }),
    );
    const paid = await db.query(`SELECT count(*)::int AS n FROM orders WHERE public_id LIKE $1 AND status = 'paid'`, [
      `ord_${tag}_%`,
    ]);
    const owned = await db.query(
      `SELECT count(*)::int AS n FROM entitlements e JOIN users u ON u.id = e.user_id WHERE u.email LIKE $1 AND e.revoked_at IS NULL`,
      [`${tag}-%`],
    );
    return {
      deliveries: deliveries.length,
      p99Ms: Math.round(percentile(latencies, 99)),
      p50Ms: Math.round(percentile(latencies, 50)),
      fiveXx: Object.entries(statuses)
        .filter(([s]) => s.startsWith('5'))
        .reduce((sum, [, n]) => sum + n, 0),
      paidOrders: paid.rows[0].n,
      entitlements: owned.rows[0].n,
      statuses,
    };
  } finally {
    await db.end();
  }
}
