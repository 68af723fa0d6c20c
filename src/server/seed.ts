import type pg from 'pg';
import { openDatabase } from './db/open.ts';
import { addDays, today } from './lib/days.ts';
import { hashPassword } from './modules/accounts/passwords.ts';
import { salesFigures } from './modules/orders/orders.owner.service.ts';

/**
 * `npm run seed -- --customers 50000 --orders 100000`: realistic demo sales for trying the owner
 * console and for the bench. Everything is generated inside PostgreSQL (generate_series, a few
 * set-based statements), so 100,000 orders take seconds, not minutes:
 * - customers sign up over 18 months, more of them lately; 8% never verify their address;
 * - orders (1 to 3 kits) follow the same growth, each by a customer who existed by then; 9% are
 *   checkouts never paid, 0.5% flagged, 3% of paid ones refunded in full and 1.5% in part;
 * - paid lines own their kits (entitlements), payment events are recorded, half the kits owned
 *   were downloaded; contact messages and newsletter subscribers besides.
 * Running it again reuses the same customers (their e-mails are derived from their number) and adds
 * orders. Every seeded customer signs in with the password DEMO_PASSWORD.
 */

export const DEMO_PASSWORD = 'demo-customer-2024';

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Katherine',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Tim',
  'Radia',
  'Guido',
  'Hedy',
  'John',
  'Mary',
  'Edsger',
  'Sophie',
  'Donald',
  'Lynn',
  'Yukihiro',
  'Anita',
  'Bjarne',
  'Jean',
  'James',
  'Carol',
  'Brendan',
  'Shafi',
  'Rasmus',
  'Fran',
  'Larry',
  'Adele',
  'Niklaus',
  'Susan',
  'Whitfield',
  'Joan',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Berners-Lee',
  'Perlman',
  'van Rossum',
  'Lamarr',
  'McCarthy',
  'Jackson',
  'Dijkstra',
  'Wilson',
  'Knuth',
  'Conway',
  'Matsumoto',
  'Borg',
  'Stroustrup',
  'Sammet',
  'Gosling',
  'Shaw',
  'Eich',
  'Goldwasser',
  'Lerdorf',
  'Bilas',
  'Wall',
  'Goldberg',
  'Wirth',
  'Kare',
  'Diffie',
  'Clarke',
  'Nguyen',
  'Garcia',
  'Müller',
  'Rossi',
  'Kowalski',
  'Silva',
];
const DOMAINS = ['example.com', 'example.net', 'example.org', 'mail.example', 'dev.example'];

const literal = (values: string[]) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`;

export type SeedOptions = { customers: number; orders: number; log?: (line: string) => void };

/**
 * `npm run seed` takes what the README says: `--customers N` and `--orders N` (or `--customers=N`),
 * each optional, 50,000 customers and 100,000 orders by default.
 */
export function parseSeedArgs(args: string[]): SeedOptions | string {
  const options = { customers: 50_000, orders: 100_000 };
  // `--name=value` reads as `--name value`.
  const words = args.flatMap((arg) =>
    /^--[a-z]+=/.test(arg) ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg],
  );
  for (let i = 0; i < words.length; i += 2) {
    const name = words[i]?.replace(/^--/, '');
    const value = Number(words[i + 1]);
    if ((name !== 'customers' && name !== 'orders') || !Number.isInteger(value) || value < 1 || value > 5_000_000)
      return `Unknown or bad option ${words[i] ?? ''} ${words[i + 1] ?? ''}: use --customers N --orders N (1 to 5,000,000; 50000 and 100000 when left out).`;
    options[name] = value;
  }
  return options;
}

export async function seedDemoSales(pool: pg.Pool, options: SeedOptions): Promise<Record<string, number>> {
  const log = options.log ?? (() => {});
  const client = await pool.connect();
  const counts: Record<string, number> = {};
  const step = async (label: string, text: string, values: unknown[] = []) => {
    const started = Date.now();
    const result = await client.query(text, values);
    if (result.rowCount !== null) counts[label] = result.rowCount;
    log(`  ${label.padEnd(22)} ${String(result.rowCount ?? '').padStart(8)}  ${Date.now() - started} ms`);
  };
  try {
    const { rows: kitRows } = await client.query('SELECT count(*)::int AS n FROM kits WHERE active');
    if (kitRows[0].n === 0) throw new Error('No kits yet: run npm run catalog first.');
    const hash = await hashPassword(DEMO_PASSWORD);
    await client.query('BEGIN');
    await client.query('SET LOCAL synchronous_commit = off; SELECT setseed(0.42)');
    // 18 months back from now; τ in [0, 1] is the share of that span gone by.
    await client.query(`CREATE TEMP TABLE seed_span ON COMMIT DROP AS
      SELECT now() - interval '548 days' AS start, interval '548 days' AS span`);

    await step(
      'customers',
      `WITH gen AS (
         SELECT j, (${literal(FIRST)})[1 + (j::bigint * 7919) % ${FIRST.length}] AS first,
                (${literal(LAST)})[1 + (j::bigint * 104729 / 7) % ${LAST.length}] AS last,
                (${literal(DOMAINS)})[1 + j % ${DOMAINS.length}] AS domain,
                (SELECT start + span * sqrt(j::float8 / $1) FROM seed_span) AS at
           FROM generate_series(1, $1::int) j)
       INSERT INTO users (name, email, password_hash, email_verified_at, created_at)
       SELECT first || ' ' || last, lower(first || '.' || replace(replace(last, ' ', ''), 'ü', 'ue') || j) || '@' || domain,
              $2, CASE WHEN random() < 0.92 THEN at + interval '3 minutes' * random() END, at
         FROM gen
       ON CONFLICT DO NOTHING`,
      [options.customers, hash],
    );
    // The seeded customers by number (also those of an earlier run), in sign-up order.
    await client.query(
      `CREATE TEMP TABLE seed_users ON COMMIT DROP AS
       SELECT row_number() OVER (ORDER BY u.created_at, u.id) AS idx, u.id, u.created_at
         FROM users u WHERE u.password_hash = $1 OR u.email ~ '^[a-z-]+\\.[a-z-]+[0-9]+@(example\\.(com|net|org)|mail\\.example|dev\\.example)$'`,
      [hash],
    );
    await client.query('CREATE INDEX ON seed_users (idx)');
    const { rows: userCount } = await client.query('SELECT count(*)::int AS n FROM seed_users');
    const users = userCount[0].n as number;
    await client.query(`CREATE TEMP TABLE seed_kits ON COMMIT DROP AS
      SELECT row_number() OVER (ORDER BY position, id) - 1 AS k, id, title, price_cents, paddle_price_id
        FROM kits WHERE active`);
    const tag = Date.now().toString(36);
    await step(
      'orders planned',
      `CREATE TEMP TABLE seed_orders ON COMMIT DROP AS
       SELECT q.j, least(now() - interval '1 minute', greatest(t.at, u.created_at + interval '10 minutes')) AS at,
              u.id AS user_id,
              CASE WHEN r < 0.09 THEN 'pending' WHEN r < 0.095 THEN 'flagged' ELSE 'paid' END AS status,
              least((SELECT count(*) FROM seed_kits)::int, CASE WHEN n < 0.70 THEN 1 WHEN n < 0.92 THEN 2 ELSE 3 END) AS lines,
              floor(random() * (SELECT count(*) FROM seed_kits))::int AS first_kit,
              q.refund, md5($3 || q.j) AS h
         FROM (SELECT p.*, 1 + floor(random() * greatest(1, least($2::int, floor($2::int * p.tau * p.tau))))::int AS pick
                 FROM (SELECT j, random() AS r, random() AS n, random() AS refund, sqrt(random()) AS tau
                         FROM generate_series(1, $1::int) j) p) q
         CROSS JOIN LATERAL (SELECT (SELECT start + span * q.tau FROM seed_span) AS at) t
         JOIN seed_users u ON u.idx = q.pick`,
      [options.orders, users, tag],
    );
    await step(
      'order lines planned',
      `CREATE TEMP TABLE seed_lines ON COMMIT DROP AS
       SELECT o.j, i, k.id AS kit_id, k.title, k.price_cents, k.paddle_price_id,
              CASE WHEN o.status = 'paid' AND (o.refund < 0.03 OR (o.refund < 0.045 AND i = 0 AND o.lines > 1))
                   THEN least(now(), o.at + interval '1 day' * (1 + random() * 20)) END AS refunded_at
         FROM seed_orders o
         CROSS JOIN LATERAL generate_series(0, o.lines - 1) i
         JOIN seed_kits k ON k.k = (o.first_kit + i) % (SELECT count(*) FROM seed_kits)`,
    );
    await step(
      'orders',
      `INSERT INTO orders (public_id, user_id, status, currency, total_cents, items_key, transaction_id, flagged_reason, created_at, paid_at)
       SELECT 'ord_' || substr(o.h, 1, 24), o.user_id,
              CASE WHEN o.status <> 'paid' THEN o.status
                   WHEN count(l.refunded_at) = 0 THEN 'paid'
                   WHEN count(l.refunded_at) = count(*) THEN 'refunded' ELSE 'partially_refunded' END,
              'USD', sum(l.price_cents), string_agg(l.kit_id::text, ',' ORDER BY l.kit_id),
              CASE WHEN o.status <> 'pending' THEN 'txn_' || substr(o.h, 5, 26) END,
              CASE WHEN o.status = 'flagged' THEN 'Does not match the order (seeded example).' END,
              o.at, CASE WHEN o.status = 'paid' THEN o.at + interval '2 minutes' * random() END
         FROM seed_orders o JOIN seed_lines l ON l.j = o.j
        GROUP BY o.j, o.h, o.user_id, o.status, o.at`,
    );
    await step(
      'order lines',
      `INSERT INTO order_items (order_id, kit_id, title, price_cents, list_price_cents, paddle_price_id, transaction_item_id, refunded_at, refunded_cents)
       SELECT ord.id, l.kit_id, l.title, l.price_cents, l.price_cents, l.paddle_price_id,
              CASE WHEN o.status <> 'pending' THEN 'txnitm_' || substr(md5(o.h || l.i), 1, 26) END, l.refunded_at,
              CASE WHEN l.refunded_at IS NOT NULL THEN l.price_cents ELSE 0 END
         FROM seed_lines l JOIN seed_orders o ON o.j = l.j JOIN orders ord ON ord.public_id = 'ord_' || substr(o.h, 1, 24)`,
    );
    await step(
      'refunds',
      `INSERT INTO order_refunds (adjustment_id, item_id, cents, created_at)
       SELECT 'adj_' || substr(md5(o.transaction_id || 'refund'), 1, 26), i.id, i.price_cents, i.refunded_at
         FROM orders o JOIN order_items i ON i.order_id = o.id
        WHERE o.public_id = ANY(SELECT 'ord_' || substr(h, 1, 24) FROM seed_orders) AND i.refunded_at IS NOT NULL`,
    );
    await step(
      'payment events',
      `INSERT INTO payment_events (event_id, event_type, payload, outcome, detail, transaction_id, received_at)
       SELECT 'evt_' || substr(md5(o.transaction_id), 1, 26), 'transaction.completed',
              jsonb_build_object('seeded', true, 'transaction_id', o.transaction_id),
              CASE WHEN o.status = 'flagged' THEN 'flagged' ELSE 'fulfilled' END,
              CASE WHEN o.status = 'flagged' THEN o.flagged_reason ELSE 'Order ' || o.public_id || ' paid.' END,
              o.transaction_id, coalesce(o.paid_at, o.created_at)
         FROM orders o WHERE o.public_id = ANY(SELECT 'ord_' || substr(h, 1, 24) FROM seed_orders) AND o.transaction_id IS NOT NULL
       UNION ALL
       SELECT DISTINCT ON (o.id) 'evt_' || substr(md5(o.transaction_id || 'refund'), 1, 26), 'adjustment.created',
              jsonb_build_object('seeded', true, 'transaction_id', o.transaction_id), 'refunded',
              'refund: ' || i.title, o.transaction_id, i.refunded_at
         FROM orders o JOIN order_items i ON i.order_id = o.id
        WHERE o.public_id = ANY(SELECT 'ord_' || substr(h, 1, 24) FROM seed_orders) AND i.refunded_at IS NOT NULL
       ON CONFLICT DO NOTHING`,
    );
    await step(
      'kits owned',
      `INSERT INTO entitlements (user_id, kit_id, source, granted_at)
       SELECT DISTINCT ON (o.user_id, i.kit_id) o.user_id, i.kit_id, o.public_id, o.paid_at
         FROM orders o JOIN order_items i ON i.order_id = o.id
        WHERE o.status IN ('paid', 'partially_refunded') AND i.refunded_at IS NULL
          AND o.public_id = ANY(SELECT 'ord_' || substr(h, 1, 24) FROM seed_orders)
        ORDER BY o.user_id, i.kit_id, o.paid_at
       ON CONFLICT DO NOTHING`,
    );
    await step(
      'downloads',
      `INSERT INTO downloads (user_id, kit_id, version_id, ip, created_at)
       SELECT e.user_id, e.kit_id, v.id, '203.0.113.' || (1 + floor(random() * 250))::int,
              least(now(), e.granted_at + interval '1 hour' * random() * 72)
         FROM entitlements e
         JOIN LATERAL (SELECT id FROM kit_versions WHERE kit_id = e.kit_id ORDER BY created_at DESC, id DESC LIMIT 1) v ON true
        WHERE e.revoked_at IS NULL AND random() < 0.5
          AND e.user_id IN (SELECT id FROM seed_users)`,
    );
    await step(
      'contact messages',
      `INSERT INTO contact_messages (topic, name, email, message, ip, created_at, answered_at)
       SELECT (ARRAY['Pre-sales (pricing, license, usage)', 'Product support (installed kit)', 'Bug report'])[1 + j % 3],
              u.name, u.email,
              (ARRAY['Can I use the kit for a client project?', 'The build fails on Windows, any idea?',
                     'Is there a discount for students?', 'How do I deploy the kit to a VPS?',
                     'The setup guide mentions a .env file I cannot find.'])[1 + j % 5],
              '198.51.100.' || (1 + j % 250), at, CASE WHEN random() < 0.7 THEN at + interval '5 hours' END
         FROM (SELECT j, (SELECT start + span * sqrt(random()) FROM seed_span) AS at,
                      1 + floor(random() * $1::int)::int AS idx FROM generate_series(1, greatest(20, $2::int / 250)) j) m
         JOIN seed_users s ON s.idx = m.idx JOIN users u ON u.id = s.id`,
      [users, options.orders],
    );
    await step(
      'subscribers',
      `INSERT INTO subscribers (email, token_hash, subscribed_at, unsubscribed_at)
       SELECT u.email, md5('seed-unsubscribe' || u.id), s.created_at + interval '10 minutes',
              CASE WHEN random() < 0.05 THEN now() - interval '1 day' * random() * 30 END
         FROM seed_users s JOIN users u ON u.id = s.id WHERE random() < 0.15
       ON CONFLICT DO NOTHING`,
    );
    // Whole days are summed again from the new rows when first asked for.
    await client.query('DELETE FROM kit_sales_days; DELETE FROM sales_days');
    await client.query('COMMIT');
    // Fresh rows: VACUUM sets the visibility map, so counts run as index-only scans at once.
    await client.query('VACUUM ANALYZE');
    // The owner's summary reads whole past days from sales_days: sum them now rather than at the first visit.
    const started = Date.now();
    await salesFigures(openDatabase(pool), addDays(today(), -560), addDays(today(), -1));
    log(`  ${'sales days summed'.padEnd(22)} ${''.padStart(8)}  ${Date.now() - started} ms`);
    return counts;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
