import { readFileSync } from 'node:fs';
import pg from 'pg';
import { hashPassword } from '../../src/server/modules/accounts/passwords.ts';
import { seedDemoSales } from '../../src/server/seed.ts';
import { visit } from './signin.ts';

/**
 * The owner console on seeded data (`npm run seed -- --customers 50000 --orders 100000`): every
 * /api/admin read, 10 owners calling at once, p99 per call. Whole past days of the summary are
 * summed once into sales_days by its first call (timed apart as "cold"); the rest are warm.
 */

export const OWNERS = 10;
export const SEED = { customers: 50_000, orders: 100_000 };
const REQUESTS_PER_CALL = 400;
const PASSWORD = 'bench-owner-password-not-common-7';

export type OwnerCallFigure = { call: string; p50Ms: number; p99Ms: number; maxMs: number; failures: number };
/** The accounting export of every seeded order: time, rows and the server's memory growth while it streamed. */
export type ExportFigure = { ms: number; rows: number; megabytes: number; rssGrowthMb: number | null; status: number };
export type OwnerFigures = {
  seedMs: number;
  coldSummaryMs: number;
  calls: OwnerCallFigure[];
  export: ExportFigure;
};

/** The bound for exporting the seeded orders. */
export const EXPORT_TARGET_MS = 10_000;

/** Resident memory of a process in MB (Linux), or null where /proc cannot tell. */
function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * `GET /api/admin/orders.csv` over every seeded day, read as a spreadsheet download would be: the
 * time to the last byte, the rows, and how far the server's resident memory rose above where it
 * started (sampled every 50 ms), which stays flat when the export streams page by page.
 */
async function measureExport(
  baseUrl: string,
  session: { cookie: string; csrf: string },
  serverPid: number | undefined,
): Promise<ExportFigure> {
  const from = day(-600);
  const before = rssMb(serverPid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = rssMb(serverPid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 50);
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  let status = 0;
  try {
    const res = await fetch(`${baseUrl}/api/admin/orders.csv?from=${from}&to=${day(0)}`, {
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
    });
    status = res.status;
    for await (const chunk of res.body ?? []) {
      const text = Buffer.from(chunk as Uint8Array);
      bytes += text.length;
      for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) rows++;
    }
  } finally {
    clearInterval(sampler);
  }
  return {
    ms: performance.now() - started,
    rows: Math.max(0, rows - 1),
    megabytes: bytes / 1e6,
    rssGrowthMb: before !== null && peak !== null ? peak - before : null,
    status,
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export async function measureOwnerConsole(
  baseUrl: string,
  databaseUrl: string,
  log: (line: string) => void = () => {},
  serverPid?: number,
): Promise<OwnerFigures> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const emails: string[] = [];
  let seedMs = 0;
  const sample: { orderId: string; email: string; customerId: number; kitTitle: string } = {
    orderId: '',
    email: '',
    customerId: 0,
    kitTitle: '',
  };
  try {
    const started = performance.now();
    await seedDemoSales(pool, { ...SEED, log });
    seedMs = performance.now() - started;
    const passwordHash = await hashPassword(PASSWORD);
    for (let i = 0; i < OWNERS; i++) {
      const email = `owner-${process.pid}-${i}@bench.example`;
      await pool.query(
        'INSERT INTO users (name, email, password_hash, email_verified_at) VALUES ($1, $2, $3, now()) ON CONFLICT DO NOTHING',
        [`Owner ${i}`, email, passwordHash],
      );
      await pool.query('INSERT INTO owners (email) VALUES ($1) ON CONFLICT DO NOTHING', [email]);
      emails.push(email);
    }
    const { rows } = await pool.query(
      `SELECT o.public_id, u.email, u.id, (SELECT title FROM order_items WHERE order_id = o.id LIMIT 1) AS title
         FROM orders o JOIN users u ON u.id = o.user_id WHERE o.status = 'paid' ORDER BY o.id DESC OFFSET 5000 LIMIT 1`,
    );
    Object.assign(sample, {
      orderId: rows[0].public_id,
      email: rows[0].email,
      customerId: rows[0].id,
      kitTitle: rows[0].title,
    });
  } finally {
    await pool.end();
  }

  const sessions = await Promise.all(
    emails.map(async (email) => {
      const browser = await visit(baseUrl);
      const res = await fetch(`${baseUrl}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': browser.csrf, cookie: browser.cookie },
        body: JSON.stringify({ email, password: PASSWORD, remember: true }),
      });
      if (res.status !== 200) throw new Error(`owner sign-in answered ${res.status}`);
      const session = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      return { cookie: `${browser.cookie}; ${session}`, csrf: browser.csrf };
    }),
  );
  const get = async (i: number, url: string) => {
    const res = await fetch(`${baseUrl}${url}`, {
      headers: { cookie: sessions[i]!.cookie, 'x-csrf-token': sessions[i]!.csrf },
    });
    await res.arrayBuffer();
    return res.status;
  };

  const yearFrom = day(-364);
  const today = day(0);
  const coldStarted = performance.now();
  const coldStatus = await get(0, `/api/admin/summary?from=${yearFrom}&to=${today}`);
  const coldSummaryMs = performance.now() - coldStarted;
  if (coldStatus !== 200) throw new Error(`the 12-month summary answered ${coldStatus}`);

  const firstPage = await fetch(`${baseUrl}/api/admin/orders?limit=25`, {
    headers: { cookie: sessions[0]!.cookie, 'x-csrf-token': sessions[0]!.csrf },
  });
  const cursor = ((await firstPage.json()) as { next_cursor: string }).next_cursor;

  const calls: [string, string][] = [
    ['summary, 12 months', `/api/admin/summary?from=${yearFrom}&to=${today}`],
    ['summary, 30 days', `/api/admin/summary?from=${day(-29)}&to=${today}`],
    ['summary, today', `/api/admin/summary?from=${today}&to=${today}`],
    ['orders, first page', '/api/admin/orders?limit=25'],
    ['orders, second page', `/api/admin/orders?limit=25&cursor=${cursor}`],
    ['orders, status refunded', '/api/admin/orders?status=refunded&limit=25'],
    ['orders, search by e-mail', `/api/admin/orders?query=${encodeURIComponent(sample.email)}`],
    ['orders, search by name', '/api/admin/orders?query=hopper'],
    ['orders, search by kit', `/api/admin/orders?query=${encodeURIComponent(sample.kitTitle)}`],
    ['orders, search by order id', `/api/admin/orders?query=${sample.orderId}`],
    ['order detail', `/api/admin/orders/${sample.orderId}`],
    ['customers, first page', '/api/admin/customers?limit=25'],
    ['customers, search', '/api/admin/customers?query=lovelace'],
    ['customer detail', `/api/admin/customers/${sample.customerId}`],
    ['kits', '/api/admin/kits'],
    ['messages, new', '/api/admin/messages?status=new'],
    ['subscribers, first page', '/api/admin/subscribers'],
    ['subscribers.csv', '/api/admin/subscribers.csv'],
    ['activity', '/api/admin/activity'],
  ];
  const figures: OwnerCallFigure[] = [];
  for (const [call, url] of calls) {
    // Warm-up: one round of every owner.
    await Promise.all(sessions.map((_, i) => get(i, url)));
    const latencies: number[] = [];
    let failures = 0;
    let next = 0;
    await Promise.all(
      sessions.map(async (_, i) => {
        while (next < REQUESTS_PER_CALL) {
          next++;
          const started = performance.now();
          const status = await get(i, url);
          latencies.push(performance.now() - started);
          if (status !== 200) failures++;
        }
      }),
    );
    const figure = {
      call,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: Math.max(...latencies),
      failures,
    };
    log(
      `  ${call.padEnd(28)} p50 ${figure.p50Ms.toFixed(1)} ms  p99 ${figure.p99Ms.toFixed(1)} ms  failures ${failures}`,
    );
    figures.push(figure);
  }
  const exported = await measureExport(baseUrl, sessions[0]!, serverPid);
  log(
    `  orders.csv, every order       ${(exported.ms / 1000).toFixed(2)} s, ${exported.rows} rows, ${exported.megabytes.toFixed(1)} MB` +
      (exported.rssGrowthMb === null ? '' : `, server memory +${exported.rssGrowthMb.toFixed(0)} MB`),
  );
  return { seedMs, coldSummaryMs, calls: figures, export: exported };
}
