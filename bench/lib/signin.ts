import autocannon from 'autocannon';
import pg from 'pg';
import { hashPassword } from '../../src/server/modules/accounts/passwords.ts';

export const SIGN_INS = 20;
const ROUNDS = 12;
const PASSWORD = 'bench-password-not-common-42';

export type SignInFigures = {
  signInP99Ms: number;
  signInP50Ms: number;
  signIns: number;
  failures: number;
  catalogP99Ms: number;
  catalogRps: number;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/** A browser's first visit: the CSRF cookie and token from the page shell. */
export async function visit(baseUrl: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${baseUrl}/`);
  const html = await res.text();
  const csrf = JSON.parse(/id="initial-data">(.*?)<\/script>/.exec(html)![1]!).csrf as string;
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, csrf };
}

/**
 * 20 users sign in at the same instant, 12 rounds in a row, while a steady load reads the catalog:
 * argon2 runs on libuv's pool, so neither the sign-ins nor the catalog reads should stall.
 */
export async function measureSignIns(baseUrl: string, databaseUrl: string): Promise<SignInFigures> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const emails: string[] = [];
  try {
    const passwordHash = await hashPassword(PASSWORD);
    for (let i = 0; i < SIGN_INS; i++) {
      const email = `bench-${process.pid}-${i}@example.com`;
      await db.query(
        'INSERT INTO users (name, email, password_hash, email_verified_at) VALUES ($1, $2, $3, now()) ON CONFLICT DO NOTHING',
        [`Bench ${i}`, email, passwordHash],
      );
      emails.push(email);
    }
  } finally {
    await db.end();
  }
  const browsers = await Promise.all(emails.map(() => visit(baseUrl)));
  const latencies: number[] = [];
  let failures = 0;
  // A steady stream of shoppers reading the catalog, not a flood: the sign-ins are what is measured.
  const catalog = autocannon({
    url: `${baseUrl}/api/products`,
    method: 'POST',
    connections: 10,
    overallRate: 1000,
    duration: 6,
    timeout: 5,
  });
  await new Promise((r) => setTimeout(r, 1000));
  // Round 0 warms up (connections, JIT) and is not counted.
  for (let round = -1; round < ROUNDS; round++) {
    await Promise.all(
      emails.map(async (email, i) => {
        const started = performance.now();
        const res = await fetch(`${baseUrl}/api/login`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-csrf-token': browsers[i]!.csrf,
            cookie: browsers[i]!.cookie,
          },
          body: JSON.stringify({ email, password: PASSWORD, remember: false }),
        });
        await res.arrayBuffer();
        if (round < 0) return;
        latencies.push(performance.now() - started);
        if (res.status !== 200) failures++;
      }),
    );
  }
  const result = await catalog;
  return {
    signInP99Ms: Math.round(percentile(latencies, 99)),
    signInP50Ms: Math.round(percentile(latencies, 50)),
    signIns: latencies.length,
    failures,
    catalogP99Ms: result.latency.p99,
    catalogRps: Math.round(result.requests.average),
  };
}
