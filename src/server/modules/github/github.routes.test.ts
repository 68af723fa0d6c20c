import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import { type Client, createClient, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { type GithubStandIn, startGithubStandIn } from '../../../../tests/setup/github-stand-in.ts';
import { createTestApp, FIXTURE_CATALOG, type TestApp } from '../../../../tests/setup/test-app.ts';
import {
  createGithubOAuth,
  createGithubRepositories,
  type GithubRepositories,
} from '../../integrations/github/github.ts';
import { openStorage } from '../../integrations/storage/storage.ts';
import { importCatalog } from '../catalog/catalog.import.ts';
import { CLAIM_SECONDS, runDueGithubJobs, startGithubWorker } from './github.jobs.ts';

const REPO = 'kitshop-test/alpha-kit';
const settings = { token: 'ghp_shop_token', clientId: 'Iv1.kitshop', clientSecret: 'kitshop-oauth-secret' };
const silent = { info: () => {}, warn: () => {} };

let gh: GithubStandIn;
let t: TestApp;
let repos: GithubRepositories;
let owner: Client;
let alpha: { id: number };
let beta: { id: number };
let nextGithubId = 7000;
/** What the app calls after queueing jobs; a test may hand it a worker's nudge. */
let jobsQueued = () => {};

beforeAll(async () => {
  gh = await startGithubStandIn({ ...settings, repositories: [REPO] });
  const env = {
    PUBLIC_URL: 'http://shop.test',
    OWNER_EMAILS: 'boss@shop.test',
    GITHUB_TOKEN: settings.token,
    GITHUB_CLIENT_ID: settings.clientId,
    GITHUB_CLIENT_SECRET: settings.clientSecret,
    GITHUB_API_URL: gh.apiUrl,
    GITHUB_WEB_URL: gh.webUrl,
  };
  const github = { ...settings, apiUrl: gh.apiUrl, webUrl: gh.webUrl };
  repos = createGithubRepositories(github);
  t = await createTestApp(env, {
    github: {
      oauth: createGithubOAuth({ ...github, redirectUri: 'http://shop.test/github/callback' }),
      repositories: repos,
      jobsQueued: () => jobsQueued(),
    },
  });
  const kits = (await t.pool.query('SELECT id, sef_id FROM kits ORDER BY position')).rows;
  alpha = kits.find((k) => k.sef_id === 'alpha-kit')!;
  beta = kits.find((k) => k.sef_id === 'beta-kit')!;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test' }));
});
afterAll(async () => {
  await t.close();
  await gh.close();
});
// Every request the shop made kept GitHub's contract (headers, token, bodies, state, PKCE).
afterEach(() => expect(gh.problems()).toEqual([]));

/** Runs job rounds as the worker would, retrying at once, until nothing is due. */
async function runJobs(client = repos) {
  for (let i = 0; i < 10; i++)
    if ((await runDueGithubJobs(t.db, client, silent, { retryDelay: () => 0 })) === 0) return;
}

/** A signed-in buyer with a GitHub account of their own (not connected yet). */
async function buyer() {
  const { client, user } = await signedInClient(t.app, t.pool);
  const github = { id: nextGithubId++, login: `octo-${nextGithubId}` };
  gh.addUser(github);
  return { client, user, github };
}

/** The OAuth round trip: the shop's redirect, GitHub's authorisation, the callback. */
async function connect(client: Client, github: { id: number; login: string }) {
  gh.setNextUser(github);
  const start = await client.get('/github/connect?returnPath=user-panel');
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(`${authorize.origin}${authorize.pathname}`).toBe(`${gh.webUrl}/login/oauth/authorize`);
  expect(authorize.searchParams.get('redirect_uri')).toBe('http://shop.test/github/callback');
  const back = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(back.headers.get('location')!);
  return client.get(`${callback.pathname}${callback.search}`);
}

const access = async (client: Client) => (await client.post('/api/github', {})).json();
const repositoryOf = async (client: Client) =>
  (await client.post('/api/purchases', {})).json().items.find((i: { id: number }) => i.id === alpha.id)?.repository;

async function pay(client: Client, kitIds: number[]) {
  const cart = (await client.post('/api/cart', { products: kitIds, checkout: true })).json();
  expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
  return cart.order_id as string;
}

const invitationsFor = (login: string) => gh.invitations().filter((i) => i.login === login);
const jobsOf = async (userId: number) =>
  (
    await t.pool.query(
      'SELECT action, status, outcome, attempts, last_error, next_attempt_at FROM github_jobs WHERE user_id = $1 ORDER BY id',
      [userId],
    )
  ).rows;

describe('connecting and granting', () => {
  it('pay, then connect: invited as a reader, then active once accepted on GitHub', async () => {
    const { client, user, github } = await buyer();
    await pay(client, [alpha.id, beta.id]);
    expect(await repositoryOf(client)).toEqual({ name: REPO, status: 'connect', url: null });
    expect((await access(client)).connected).toBe(false);

    const back = await connect(client, github);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/user-panel?github=connected');
    expect(await repositoryOf(client)).toEqual({ name: REPO, status: 'pending', url: null });
    await runJobs();
    expect(invitationsFor(github.login)).toHaveLength(1);
    expect(await access(client)).toEqual({
      connected: true,
      login: github.login,
      repositories: [{ kit_id: alpha.id, name: REPO, status: 'invited', url: `${gh.webUrl}/${REPO}/invitations` }],
    });
    // Beta has no repository: its purchase item says so.
    const items = (await client.post('/api/purchases', {})).json().items;
    expect(items.find((i: { id: number }) => i.id === beta.id).repository).toBeNull();

    gh.accept(REPO, github.login);
    expect((await access(client)).repositories[0]).toMatchObject({ status: 'active', url: `${gh.webUrl}/${REPO}` });
    expect(await jobsOf(user.id)).toMatchObject([{ action: 'grant', status: 'done', outcome: 'active' }]);
  });

  it('a running worker invites within 2 s of the payment (nudged by it, not waiting for its round)', async () => {
    const worker = startGithubWorker(t.db, repos, silent, { intervalMs: 60_000 });
    jobsQueued = worker.nudge;
    try {
      const { client, github } = await buyer();
      await connect(client, github);
      const started = Date.now();
      await pay(client, [alpha.id]);
      while (invitationsFor(github.login).length === 0) {
        expect(Date.now() - started).toBeLessThan(2000);
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      jobsQueued = () => {};
      await worker.stop();
    }
  });

  it('connect, then pay: the payment queues the grant in its own transaction', async () => {
    const { client, user, github } = await buyer();
    await connect(client, github);
    expect(await jobsOf(user.id)).toEqual([]);
    expect((await access(client)).repositories).toEqual([]);
    await pay(client, [alpha.id]);
    expect(await jobsOf(user.id)).toMatchObject([{ action: 'grant', status: 'queued' }]);
    await runJobs();
    expect(await repositoryOf(client)).toMatchObject({ status: 'invited' });
    const put = gh.calls().filter((c) => c.method === 'PUT' && c.path.endsWith(`/${github.login}`));
    expect(put).toMatchObject([{ path: `/repos/${REPO}/collaborators/${github.login}`, status: 201 }]);
  });

  it('a refund removes the pending invitation and the collaborator; the kit shows as revoked', async () => {
    const { client, user, github } = await buyer();
    await connect(client, github);
    const orderId = await pay(client, [alpha.id]);
    await runJobs();
    expect(invitationsFor(github.login)).toHaveLength(1);
    const refund = await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked for it' });
    expect(refund.statusCode).toBe(200);
    expect((await jobsOf(user.id)).map((j) => `${j.action}:${j.status}`)).toEqual(['grant:done', 'revoke:queued']);
    await runJobs();
    expect(invitationsFor(github.login)).toEqual([]);
    expect(gh.collaborators(REPO)).not.toContain(github.login.toLowerCase());
    expect((await access(client)).repositories).toEqual([
      { kit_id: alpha.id, name: REPO, status: 'revoked', url: null },
    ]);

    // An accepted invitation (a collaborator) goes too.
    const second = await buyer();
    await connect(second.client, second.github);
    const paid = await pay(second.client, [alpha.id]);
    await runJobs();
    gh.accept(REPO, second.github.login);
    await owner.post(`/api/admin/orders/${paid}/refund`, { reason: 'x' });
    await runJobs();
    expect(gh.collaborators(REPO)).not.toContain(second.github.login.toLowerCase());
  });

  it("an owner's grant invites and the owner's revoke removes", async () => {
    const { client, user, github } = await buyer();
    await connect(client, github);
    expect(
      (await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: alpha.id, note: 'gift' })).statusCode,
    ).toBe(200);
    await runJobs();
    expect(invitationsFor(github.login)).toHaveLength(1);
    await owner.post(`/api/admin/customers/${user.id}/revoke`, { kit_id: alpha.id, note: 'over' });
    await runJobs();
    expect(invitationsFor(github.login)).toEqual([]);
    expect(await repositoryOf(client)).toBeUndefined();
  });

  it('disconnect removes the link and the access; one GitHub account per shop account and back', async () => {
    const { client, user, github } = await buyer();
    await grantKits(t.pool, user.id, [alpha.id]);
    await connect(client, github);
    await runJobs();
    gh.accept(REPO, github.login);

    const other = await buyer();
    expect((await connect(other.client, github)).headers.location).toBe('/user-panel?github=taken');
    expect((await connect(client, other.github)).headers.location).toBe('/user-panel?github=other_account');

    const res = await client.post('/api/github/disconnect', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      connected: false,
      login: null,
      repositories: [{ kit_id: alpha.id, name: REPO, status: 'connect', url: null }],
    });
    await runJobs();
    expect(gh.collaborators(REPO)).not.toContain(github.login.toLowerCase());
    // Now free for the other customer.
    expect((await connect(other.client, github)).headers.location).toBe('/user-panel?github=connected');
  });

  it('answers 401 signed out and 419 without the CSRF token; the connect link sends a signed-out visitor to sign in', async () => {
    const anonymous = await createClient(t.app);
    expect((await anonymous.post('/api/github', {})).statusCode).toBe(401);
    expect((await anonymous.post('/api/github/disconnect', {})).statusCode).toBe(401);
    expect((await anonymous.get('/github/connect')).headers.location).toBe('/login');
    const { client } = await buyer();
    expect((await client.post('/api/github', {}, { 'x-csrf-token': 'wrong' })).statusCode).toBe(419);
  });
});

describe('the OAuth state', () => {
  /** Starts a connection and returns GitHub's callback URL (code and state) without following it. */
  async function authorised(client: Client, github: { id: number; login: string }) {
    gh.setNextUser(github);
    const start = await client.get('/github/connect');
    const back = await fetch(start.headers.location as string, { redirect: 'manual' });
    return new URL(back.headers.get('location')!);
  }

  it('refuses a missing, wrong, reused or foreign state, and connects nothing', async () => {
    const { client, github } = await buyer();
    const callback = await authorised(client, github);
    const code = callback.searchParams.get('code')!;
    const state = callback.searchParams.get('state')!;
    expect((await client.get(`/github/callback?code=${code}`)).headers.location).toBe('/user-panel?github=state');
    expect((await client.get(`/github/callback?code=${code}&state=${state}x`)).headers.location).toBe(
      '/user-panel?github=state',
    );
    // A state from another customer's session.
    const other = await buyer();
    expect((await other.client.get(`/github/callback?code=${code}&state=${state}`)).headers.location).toBe(
      '/user-panel?github=state',
    );
    // That try used it up: the rightful session is refused too.
    expect((await client.get(`/github/callback?code=${code}&state=${state}`)).headers.location).toBe(
      '/user-panel?github=state',
    );
    expect((await access(client)).connected).toBe(false);

    const fresh = await authorised(client, github);
    expect((await client.get(`${fresh.pathname}${fresh.search}`)).headers.location).toBe(
      '/user-panel?github=connected',
    );
    // Replayed: refused.
    expect((await client.get(`${fresh.pathname}${fresh.search}`)).headers.location).toBe('/user-panel?github=state');
  });

  it('a denied authorisation or a refused code connects nothing', async () => {
    const { client, github } = await buyer();
    const callback = await authorised(client, github);
    const state = callback.searchParams.get('state')!;
    expect((await client.get(`/github/callback?error=access_denied&state=${state}`)).headers.location).toBe(
      '/user-panel?github=denied',
    );
    const again = await authorised(client, github);
    expect(
      (await client.get(`/github/callback?code=forged&state=${again.searchParams.get('state')}`)).headers.location,
    ).toBe('/user-panel?github=failed');
    expect((await access(client)).connected).toBe(false);
  });

  it('an expired state is refused and swept', async () => {
    const { client, github } = await buyer();
    const callback = await authorised(client, github);
    await t.pool.query("UPDATE github_oauth_states SET expires_at = now() - interval '1 second'");
    expect((await client.get(`${callback.pathname}${callback.search}`)).headers.location).toBe(
      '/user-panel?github=state',
    );
  });
});

describe('the job queue', () => {
  async function connectedBuyerWithKit() {
    const b = await buyer();
    await connect(b.client, b.github);
    await grantKits(t.pool, b.user.id, [alpha.id]);
    return b;
  }
  const queueSync = async (userId: number) => {
    const { queueRepositoryAccessSync } = await import('./github.service.ts');
    await t.db.transaction((tx) => queueRepositoryAccessSync(tx, userId));
  };

  it('502 twice, then success: retried with backoff until invited', async () => {
    const { user, github } = await connectedBuyerWithKit();
    await queueSync(user.id);
    gh.failNext({ method: 'PUT', path: `/collaborators/${github.login}`, status: 502, times: 2 });
    await runDueGithubJobs(t.db, repos, silent);
    const [first] = await jobsOf(user.id);
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(first.last_error).toContain('502');
    // Backoff: not due for 5 s.
    expect(first.next_attempt_at.getTime() - Date.now()).toBeGreaterThan(3000);
    expect(await runDueGithubJobs(t.db, repos, silent)).toBe(0);
    await t.pool.query("UPDATE github_jobs SET next_attempt_at = now() WHERE user_id = $1 AND status = 'queued'", [
      user.id,
    ]);
    await runJobs();
    expect(await jobsOf(user.id)).toMatchObject([
      { status: 'done', outcome: 'invited', attempts: 3, last_error: null },
    ]);
    expect(invitationsFor(github.login)).toHaveLength(1);
  });

  it("a 403 secondary rate limit waits as long as retry-after says; a 429's x-ratelimit-reset too", async () => {
    const { user, github } = await connectedBuyerWithKit();
    await queueSync(user.id);
    gh.failNext({
      method: 'PUT',
      status: 403,
      headers: { 'retry-after': '120' },
      body: { message: 'You have exceeded a secondary rate limit.' },
    });
    await runJobs();
    let [job] = await jobsOf(user.id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    const wait = (job.next_attempt_at.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(115);
    expect(wait).toBeLessThan(125);
    await t.pool.query("UPDATE github_jobs SET next_attempt_at = now() WHERE user_id = $1 AND status = 'queued'", [
      user.id,
    ]);
    const reset = Math.floor(Date.now() / 1000) + 600;
    gh.failNext({
      method: 'PUT',
      status: 429,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    });
    await runJobs();
    [job] = await jobsOf(user.id);
    expect(Math.abs(job.next_attempt_at.getTime() / 1000 - reset)).toBeLessThan(5);
    await t.pool.query("UPDATE github_jobs SET next_attempt_at = now() WHERE user_id = $1 AND status = 'queued'", [
      user.id,
    ]);
    await runJobs();
    expect(await jobsOf(user.id)).toMatchObject([{ status: 'done', outcome: 'invited', attempts: 3 }]);
    expect(invitationsFor(github.login)).toHaveLength(1);
  });

  it('422 (an unknown user) fails for good: recorded, visible to the buyer and the owner, not retried', async () => {
    const { client, user } = await connectedBuyerWithKit();
    gh.failNext({
      method: 'PUT',
      status: 422,
      body: { message: 'Validation Failed', errors: [{ field: 'username', code: 'invalid' }] },
    });
    await queueSync(user.id);
    await runJobs();
    const [job] = await jobsOf(user.id);
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job.last_error).toContain('422');
    expect(await repositoryOf(client)).toEqual({ name: REPO, status: 'failed', url: null });
    const customer = (await owner.get(`/api/admin/customers/${user.id}`)).json();
    expect(customer.repository_failures).toMatchObject([{ action: 'grant', repository: REPO }]);
    expect(customer.repository_failures[0].error).toContain('Validation Failed');
  });

  it('404 (no such repository) fails for good', async () => {
    const { user } = await connectedBuyerWithKit();
    await t.pool.query("UPDATE kits SET github_repository = 'kitshop-test/gone' WHERE id = $1", [alpha.id]);
    try {
      await queueSync(user.id);
      await runJobs();
    } finally {
      await t.pool.query('UPDATE kits SET github_repository = $1 WHERE id = $2', [REPO, alpha.id]);
    }
    expect(await jobsOf(user.id)).toMatchObject([{ status: 'failed', attempts: 1 }]);
  });

  it('survives a restart: a failed attempt, or a claim whose process died, is run by the next worker', async () => {
    const { user, github } = await connectedBuyerWithKit();
    await queueSync(user.id);
    gh.failNext({ method: 'PUT', status: 502 });
    await runDueGithubJobs(t.db, repos, silent);
    expect(await jobsOf(user.id)).toMatchObject([{ status: 'queued', attempts: 1 }]);
    // The process stops; another starts with its own client and finds the job in PostgreSQL.
    const restarted = createGithubRepositories({ token: settings.token, apiUrl: gh.apiUrl });
    await t.pool.query("UPDATE github_jobs SET next_attempt_at = now() WHERE user_id = $1 AND status = 'queued'", [
      user.id,
    ]);
    await runJobs(restarted);
    expect(await jobsOf(user.id)).toMatchObject([{ status: 'done', outcome: 'invited', attempts: 2 }]);

    // A claim taken by a process that died before it could record anything: due again after CLAIM_SECONDS.
    const second = await connectedBuyerWithKit();
    await queueSync(second.user.id);
    await t.pool.query(
      `UPDATE github_jobs SET attempts = 1, next_attempt_at = now() + make_interval(secs => $2)
        WHERE user_id = $1`,
      [second.user.id, CLAIM_SECONDS],
    );
    expect(await runDueGithubJobs(t.db, restarted, silent)).toBe(0);
    await t.pool.query("UPDATE github_jobs SET next_attempt_at = now() - interval '1 second' WHERE user_id = $1", [
      second.user.id,
    ]);
    await runJobs(restarted);
    expect(await jobsOf(second.user.id)).toMatchObject([{ status: 'done', attempts: 2 }]);
    expect(invitationsFor(second.github.login)).toHaveLength(1);
    expect(invitationsFor(github.login)).toHaveLength(1);
  });

  it('never runs a job twice across instances, and runs one account’s jobs of a repository in order', async () => {
    const { user, github } = await connectedBuyerWithKit();
    await queueSync(user.id);
    await t.pool.query('UPDATE entitlements SET revoked_at = now() WHERE user_id = $1', [user.id]);
    await queueSync(user.id);
    const before = gh.calls().length;
    const other = createGithubRepositories({ token: settings.token, apiUrl: gh.apiUrl });
    // Two instances at once, twice: the grant runs once, and the revoke only after it.
    for (let round = 0; round < 2; round++)
      await Promise.all([
        runDueGithubJobs(t.db, repos, silent, { retryDelay: () => 0 }),
        runDueGithubJobs(t.db, other, silent, { retryDelay: () => 0 }),
      ]);
    const calls = gh.calls().slice(before);
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    const order = calls.map((c) => c.method);
    expect(order.indexOf('PUT')).toBeLessThan(order.indexOf('DELETE'));
    expect(await jobsOf(user.id)).toMatchObject([
      { action: 'grant', status: 'done', attempts: 1 },
      { action: 'revoke', status: 'done', attempts: 1 },
    ]);
    expect(invitationsFor(github.login)).toEqual([]);
  });
});

describe('a GitHub account is its id, not its login', () => {
  const invitationsOfId = (id: number) => gh.invitations().filter((i) => i.inviteeId === id);

  it("a rename between grant and revoke: the revoke removes the renamed account's access, accepted or pending", async () => {
    const { client, user, github } = await buyer();
    await connect(client, github);
    const orderId = await pay(client, [alpha.id]);
    await runJobs();
    gh.accept(REPO, github.login);
    expect(gh.collaboratorIds(REPO)).toContain(github.id);
    gh.rename(github.id, `${github.login}-renamed`);

    await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked for it' });
    await runJobs();
    expect(gh.collaboratorIds(REPO)).not.toContain(github.id);
    expect(await jobsOf(user.id)).toMatchObject([
      { action: 'grant', status: 'done' },
      { action: 'revoke', status: 'done', outcome: 'revoked' },
    ]);
    // The new login is kept, for the buyer to see.
    expect((await access(client)).login).toBe(`${github.login}-renamed`);

    // Renamed with the invitation still pending: the invitation goes, matched by the invitee's id.
    const second = await buyer();
    await connect(second.client, second.github);
    const paid = await pay(second.client, [alpha.id]);
    await runJobs();
    expect(invitationsOfId(second.github.id)).toHaveLength(1);
    gh.rename(second.github.id, `${second.github.login}-2`);
    await owner.post(`/api/admin/orders/${paid}/refund`, { reason: 'x' });
    await runJobs();
    expect(invitationsOfId(second.github.id)).toEqual([]);
    expect(gh.accept(REPO, `${second.github.login}-2`)).toBe(false);
    expect(gh.collaboratorIds(REPO)).not.toContain(second.github.id);
  });

  it('a stranger who takes the old login never receives an invitation meant for the buyer', async () => {
    const { client, user, github } = await buyer();
    await connect(client, github);
    // The grant is queued under the login of the day; the buyer renames before it runs, and a
    // stranger signs up with the freed login.
    await pay(client, [alpha.id]);
    expect(await jobsOf(user.id)).toMatchObject([{ action: 'grant', status: 'queued' }]);
    gh.rename(github.id, `${github.login}-new`);
    const stranger = gh.addUser({ id: nextGithubId++, login: github.login });
    await runJobs();
    expect(invitationsOfId(stranger.id)).toEqual([]);
    expect(invitationsOfId(github.id)).toMatchObject([{ login: `${github.login}-new` }]);
    expect(await access(client)).toMatchObject({
      login: `${github.login}-new`,
      repositories: [{ name: REPO, status: 'invited' }],
    });

    // A later grant (after an owner's revoke, the owner's grant) goes to the buyer too.
    await owner.post(`/api/admin/customers/${user.id}/revoke`, { kit_id: alpha.id, note: 'moved' });
    await runJobs();
    await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: alpha.id, note: 'back' });
    await runJobs();
    expect(invitationsOfId(stranger.id)).toEqual([]);
    expect(invitationsOfId(github.id)).toHaveLength(1);
    expect(gh.calls().some((c) => c.path.endsWith(`/collaborators/${github.login}`))).toBe(false);
  });

  it("the panel checks an accepted invitation under the account's login of now, and shows that login", async () => {
    const { client, github } = await buyer();
    await connect(client, github);
    await pay(client, [alpha.id]);
    await runJobs();
    gh.rename(github.id, `${github.login}-now`);
    gh.addUser({ id: nextGithubId++, login: github.login });
    expect(await access(client)).toMatchObject({
      login: `${github.login}-now`,
      repositories: [{ name: REPO, status: 'invited' }],
    });
    gh.accept(REPO, `${github.login}-now`);
    expect(await access(client)).toMatchObject({
      login: `${github.login}-now`,
      repositories: [{ name: REPO, status: 'active' }],
    });
  });

  it('a 404 on removal is not taken as done while the account still has access', async () => {
    const { client, user, github } = await buyer();
    await connect(client, github);
    const orderId = await pay(client, [alpha.id]);
    await runJobs();
    gh.accept(REPO, github.login);
    await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Asked for it' });
    gh.failNext({ method: 'DELETE', path: '/collaborators/', status: 404, body: { message: 'Not Found' }, times: 3 });
    await runDueGithubJobs(t.db, repos, silent, { retryDelay: () => 0 });
    const [, revoke] = await jobsOf(user.id);
    expect(revoke).toMatchObject({ action: 'revoke', status: 'queued', attempts: 1 });
    expect(revoke.last_error).toContain('404');
    expect(gh.collaboratorIds(REPO)).toContain(github.id);

    await runJobs();
    expect(gh.collaboratorIds(REPO)).not.toContain(github.id);
    expect((await jobsOf(user.id))[1]).toMatchObject({ status: 'done', outcome: 'revoked', attempts: 2 });
  });
});

describe('the catalog', () => {
  it("a kit whose repository changes on import moves its owners' access to the new one", async () => {
    const b = await buyer();
    await connect(b.client, b.github);
    await grantKits(t.pool, b.user.id, [alpha.id]);
    const { queueRepositoryAccessSync } = await import('./github.service.ts');
    await t.db.transaction((tx) => queueRepositoryAccessSync(tx, b.user.id));
    await runJobs();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-catalog-'));
    try {
      cpSync(FIXTURE_CATALOG, dir, { recursive: true });
      const file = path.join(dir, 'kits/alpha-kit/kit.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace(REPO, 'kitshop-test/alpha-kit-v2'));
      await importCatalog(t.db, await openStorage(t.config), dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await jobsOf(b.user.id)).map((j) => `${j.action}:${j.status}`)).toEqual([
      'grant:done',
      'revoke:queued',
      'grant:queued',
    ]);
    const { rows } = await t.pool.query(
      "SELECT action, repository FROM github_jobs WHERE user_id = $1 AND status = 'queued' ORDER BY id",
      [b.user.id],
    );
    expect(rows).toEqual([
      { action: 'revoke', repository: REPO },
      { action: 'grant', repository: 'kitshop-test/alpha-kit-v2' },
    ]);
    await t.pool.query("UPDATE github_jobs SET status = 'done' WHERE user_id = $1", [b.user.id]);
    await t.pool.query('UPDATE kits SET github_repository = $1 WHERE id = $2', [REPO, alpha.id]);
  });
});
