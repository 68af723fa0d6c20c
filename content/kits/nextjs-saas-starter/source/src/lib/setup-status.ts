import { sql } from 'drizzle-orm';

export type Check = { name: string; ok: boolean; detail: string; optional?: boolean };

function present(...names: string[]): boolean {
  return names.every((name) => Boolean(process.env[name]));
}

/** Whether the database answers and has the tables; never throws, so the page can say what is missing. */
async function databaseCheck(): Promise<Check> {
  if (!process.env.DATABASE_URL)
    return { name: 'Database', ok: false, detail: 'DATABASE_URL is not set: run cp .env.example .env.local' };
  try {
    const { db } = await import('@/db');
    const query = db.execute<{ teams: string | null }>(sql`select to_regclass('public.teams')::text as teams`);
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 3 s')), 3000));
    const rows = await Promise.race([query, timeout]);
    return rows[0]?.teams
      ? { name: 'Database', ok: true, detail: 'connected, migrations applied' }
      : { name: 'Database', ok: false, detail: 'connected, but the tables are missing: run npm run db:migrate' };
  } catch (error) {
    return {
      name: 'Database',
      ok: false,
      detail: `not reachable (${(error as Error).message}): start it with docker compose up -d db, then npm run db:migrate`,
    };
  }
}

/** What this installation has configured, for the setup checklist on the landing page in development. */
export async function setupStatus(): Promise<Check[]> {
  const signIn = present('RESEND_API_KEY') || present('AUTH_GITHUB_ID') || present('AUTH_GOOGLE_ID');
  return [
    await databaseCheck(),
    {
      name: 'AUTH_SECRET',
      ok: present('AUTH_SECRET'),
      detail: present('AUTH_SECRET') ? 'set' : 'missing: npx auth secret, or openssl rand -base64 32',
    },
    {
      name: 'Sign-in provider',
      ok: signIn,
      detail: signIn
        ? 'at least one configured'
        : 'none: set RESEND_API_KEY, AUTH_GITHUB_ID/SECRET or AUTH_GOOGLE_ID/SECRET',
    },
    {
      name: 'Stripe',
      ok: present('STRIPE_SECRET_KEY', 'STRIPE_PRICE_PRO_MONTHLY', 'STRIPE_PRICE_PRO_YEARLY'),
      detail: present('STRIPE_SECRET_KEY') ? 'keys set' : 'optional until you sell: billing stays on the free plan',
      optional: true,
    },
  ];
}
