import pg from 'pg';
import { sandboxWebhookSecret } from '../../src/server/integrations/payments/sandbox.ts';
import { type GithubStandIn, startGithubStandIn } from '../../tests/setup/github-stand-in.ts';
import { pendingOrderEvent } from './webhooks.ts';

export const GITHUB_RUNS = 5;

const SETTINGS = { token: 'ghp_bench_token', clientId: 'Iv1.kitshop-bench', clientSecret: 'kitshop-bench-github' };

/** A local GitHub (tests/setup/github-stand-in.ts) and the GITHUB_* settings that point a server at it. */
export async function startBenchGithub() {
  const github = await startGithubStandIn({
    ...SETTINGS,
    repositories: ['kitshop-dev/nextjs-saas-starter', 'kitshop-dev/laravel-vue-crm'],
  });
  return {
    github,
    env: {
      GITHUB_TOKEN: SETTINGS.token,
      GITHUB_CLIENT_ID: SETTINGS.clientId,
      GITHUB_CLIENT_SECRET: SETTINGS.clientSecret,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_WEB_URL: github.webUrl,
    },
  };
}

/**
 * From the payment to the repository invitation: a buyer with GitHub connected pays for a kit that
 * has a repository (the signed `transaction.completed` the sandbox and Paddle send), and the clock
 * runs until the stand-in holds the invitation (the grant job queued with the payment, claimed by
 * the server's worker, PUT .../collaborators/{login} answered 201). One buyer at a time.
 */
export async function measurePayToInvitation(
  baseUrl: string,
  databaseUrl: string,
  sessionSecret: string,
  github: GithubStandIn,
): Promise<number[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const runs: number[] = [];
  try {
    const { rows: kits } = await db.query(
      'SELECT id, price_cents, paddle_price_id FROM kits WHERE active AND github_repository IS NOT NULL ORDER BY position LIMIT 1',
    );
    const kit = kits[0];
    if (!kit) throw new Error('no kit with a github_repository in the catalog');
    const secret = sandboxWebhookSecret(sessionSecret);
    for (let i = 0; i < GITHUB_RUNS; i++) {
      const tag = `gh${process.pid}x${i}`;
      const login = `bench-${tag}`;
      github.addUser({ id: 800_000 + process.pid * 10 + i, login });
      const { rows: users } = await db.query(
        `INSERT INTO users (name, email, email_verified_at) VALUES ('GitHub buyer', $1, now()) RETURNING id`,
        [`${tag}@example.com`],
      );
      const userId = users[0].id;
      await db.query('INSERT INTO github_accounts (user_id, github_id, login) VALUES ($1, $2, $3)', [
        userId,
        800_000 + process.pid * 10 + i,
        login,
      ]);
      const event = await pendingOrderEvent(db, kit, userId, `ord_${tag}`, secret);
      const started = performance.now();
      const res = await fetch(`${baseUrl}/api/webhooks/paddle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'paddle-signature': event.sign() },
        body: event.body,
      });
      if (res.status !== 200) throw new Error(`the payment webhook answered ${res.status}`);
      while (!github.invitations().some((invitation) => invitation.login === login)) {
        if (performance.now() - started > 15_000) throw new Error(`no invitation for ${login} within 15 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
      runs.push(Math.round(performance.now() - started));
    }
    const problems = github.problems();
    if (problems.length > 0) throw new Error(`the stand-in saw requests off GitHub's contract: ${problems[0]}`);
    return runs;
  } finally {
    await db.end();
  }
}
