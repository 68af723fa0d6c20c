import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../../tests/factories/users.ts';
import { type Client, createClient, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { createSoftAuthenticator } from '../../../../tests/setup/webauthn.ts';
import { COOKIE_NAMES } from '../../http/cookies.ts';
import { hashSessionToken } from '../../http/session.ts';

let t: TestApp;
let kit: { id: number; sef_id: string; title: string };
let owner: Client;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  kit = (await t.pool.query('SELECT id, sef_id, title FROM kits ORDER BY position LIMIT 1')).rows[0];
  owner = (await signedInClient(t.app, t.pool, { email: 'boss@shop.test', password: 'boss-password-2025!' })).client;
});
afterAll(() => t.close());

/** Gives a client a session of this user that began `ago` (an interval) ago, as a sign-in then would. */
async function signInAs(client: Client, userId: number, ago: string) {
  const token = randomBytes(32).toString('base64url');
  await t.pool.query(
    "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, now() - $3::interval, now() + interval '1 hour')",
    [hashSessionToken(token), userId, ago],
  );
  client.jar.set(COOKIE_NAMES.session, token);
}

const lastMailTo = (email: string) => [...t.mails].reverse().find((m) => m.to === email);
const linkIn = (text: string) => /(http:\/\/shop\.test\/[^\s]+)/.exec(text)?.[1];

/** A verified buyer who paid for a kit, downloaded it, wrote to support and subscribed. */
async function activeBuyer() {
  const { client, user } = await signedInClient(t.app, t.pool, { name: 'Erin Buyer' });
  const { order_id } = (await client.post('/api/cart', { products: [kit.id], checkout: true })).json();
  expect((await sandboxPay(client, order_id)).statusCode).toBe(200);
  expect((await client.get(`/download/${kit.id}`)).statusCode).toBe(200);
  await client.post('/api/contact', { topic: 'Other', name: 'Erin', email: user.email, message: 'Hello there' });
  await client.post('/api/subscribe', { email: user.email });
  await t.deliverMail();
  return { client, user, orderId: order_id as string };
}

describe('signed out', () => {
  it('answers 401 to every account call, and 419 without the CSRF token', async () => {
    const visitor = await createClient(t.app);
    for (const path of [
      '/api/account/identity',
      '/api/account/export',
      '/api/account/delete',
      '/api/account/email',
      '/api/account/email/confirm',
    ]) {
      const res = await visitor.post(path, {});
      expect(res.statusCode, path).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    const raw = await t.app.inject({ method: 'POST', url: '/api/account/export' });
    expect(raw.statusCode).toBe(419);
  });
});

describe('POST /api/account/export', () => {
  it('holds the profile, sessions, order, kit, download, message and subscription, and no secret', async () => {
    const { client, user, orderId } = await activeBuyer();
    const res = await client.post('/api/account/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="kitshop-data-\d{4}-\d\d-\d\d\.json"$/);
    const data = res.json();
    expect(data.profile).toMatchObject({ id: user.id, name: 'Erin Buyer', email: user.email });
    expect(data.sign_in_methods).toEqual({ password: true, google: null, two_step: null, passkeys: [] });
    expect(data.sessions).toEqual([
      expect.objectContaining({ this_browser: true, remember_me: false, ip: '127.0.0.1', signed_in_with: 'password' }),
    ]);
    expect(data.orders).toEqual([
      expect.objectContaining({
        order_id: orderId,
        status: 'paid',
        lines: [expect.objectContaining({ kit_id: kit.id, refunded_at: null })],
      }),
    ]);
    expect(data.kits_owned).toEqual([expect.objectContaining({ kit_id: kit.id, title: kit.title, source: orderId })]);
    expect(data.downloads).toEqual([
      expect.objectContaining({ kit_id: kit.id, version: expect.any(String), ip: '127.0.0.1' }),
    ]);
    expect(data.contact_messages).toEqual([expect.objectContaining({ message: 'Hello there' })]);
    expect(data.newsletter).toMatchObject({ email: user.email, unsubscribed_at: null });
    expect(data.consents.newsletter.given_at).toEqual(expect.any(String));
    expect(data.github).toEqual({ account: null, repository_access: [] });
    const text = res.body;
    for (const secret of ['password_hash', 'token', 'argon2', user.password]) expect(text).not.toContain(secret);
  });
});

describe('POST /api/account/delete', () => {
  it('refuses a wrong password or a missing confirmation, and changes nothing', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const wrong = await client.post('/api/account/delete', { password: 'not-the-password', confirmation: 'DELETE' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ message: 'The password is not correct.' });
    const unconfirmed = await client.post('/api/account/delete', { password: user.password, confirmation: 'delete' });
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.json().message).toMatch(/Type DELETE to confirm/);
    const missing = await client.post('/api/account/delete', { confirmation: 'DELETE' });
    expect(missing.statusCode).toBe(422);
    expect(await client.user()).toMatchObject({ id: user.id });
  });

  it('erases the account, keeps its order pseudonymised, and frees the address for a new account', async () => {
    const { client, user, orderId } = await activeBuyer();
    const elsewhere = await createClient(t.app);
    expect((await elsewhere.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);

    const res = await client.post('/api/account/delete', { password: user.password, confirmation: 'DELETE' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/deleted/);
    // Every session ended: this one and the other browser's.
    expect(await client.user()).toEqual({});
    expect(await elsewhere.user()).toEqual({});
    expect((await elsewhere.get(`/download/${kit.id}`)).statusCode).toBe(401);
    const login = await createClient(t.app);
    expect((await login.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(422);

    const q = async (text: string, values: unknown[]) => (await t.pool.query(text, values)).rows;
    expect(
      await q('SELECT name, email, password_hash, google_sub, deleted_at FROM users WHERE id = $1', [user.id]),
    ).toEqual([
      {
        name: 'Deleted account',
        email: `deleted-${user.id}@deleted.invalid`,
        password_hash: null,
        google_sub: null,
        deleted_at: expect.any(Date),
      },
    ]);
    for (const table of [
      'sessions',
      'entitlements',
      'licence_keys',
      'downloads',
      'email_tokens',
      'kit_grants',
      'passkeys',
      'known_devices',
    ]) {
      expect(await q(`SELECT 1 FROM ${table} WHERE user_id = $1`, [user.id]), table).toEqual([]);
    }
    expect(await q('SELECT 1 FROM contact_messages WHERE lower(email) = lower($1)', [user.email])).toEqual([]);
    expect(await q('SELECT 1 FROM subscribers WHERE lower(email) = lower($1)', [user.email])).toEqual([]);
    expect(await q('SELECT subject FROM mail_outbox WHERE "to" = $1', [user.email])).toEqual([
      { subject: 'Your Kitshop account has been deleted' },
    ]);
    await t.deliverMail();
    expect(lastMailTo(user.email)!.text).toMatch(/accounting/);

    // The owner still sees the sale, without the buyer's name or e-mail.
    const order = (await owner.get(`/api/admin/orders/${orderId}`)).json();
    expect(order).toMatchObject({ id: orderId, status: 'paid', email: '', name: 'Deleted account' });
    expect(JSON.stringify(order)).not.toContain(user.email);

    // The same address signs up again as a new, empty account.
    const again = await createClient(t.app);
    expect(
      (await again.post('/api/register', { name: 'Erin Again', email: user.email, password: 'brand-new-2026!' }))
        .statusCode,
    ).toBe(200);
    const fresh = await q('SELECT id, deleted_at FROM users WHERE lower(email) = lower($1)', [user.email]);
    expect(fresh).toEqual([{ id: expect.any(Number), deleted_at: null }]);
    expect(fresh[0].id).not.toBe(user.id);
  });

  it('queues the revoke of every repository its connected GitHub account was given, and unlinks it', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await t.pool.query("INSERT INTO github_accounts (user_id, github_id, login) VALUES ($1, 4242, 'erin-gh')", [
      user.id,
    ]);
    await t.pool.query(
      `INSERT INTO github_jobs (user_id, action, repository, github_id, login, status, outcome)
       VALUES ($1, 'grant', 'kitshop/alpha-kit', 4242, 'erin-gh', 'done', 'active')`,
      [user.id],
    );
    const exported = (await client.post('/api/account/export')).json();
    expect(exported.github.account).toMatchObject({ login: 'erin-gh', connected_at: expect.any(String) });
    expect(exported.github.repository_access).toEqual([expect.objectContaining({ repository: 'kitshop/alpha-kit' })]);
    expect(
      (await client.post('/api/account/delete', { password: user.password, confirmation: 'DELETE' })).statusCode,
    ).toBe(200);
    const jobs = await t.pool.query(
      'SELECT action, repository, login, status FROM github_jobs WHERE user_id = $1 ORDER BY id',
      [user.id],
    );
    expect(jobs.rows).toEqual([
      { action: 'grant', repository: 'kitshop/alpha-kit', login: 'erin-gh', status: 'done' },
      { action: 'revoke', repository: 'kitshop/alpha-kit', login: 'erin-gh', status: 'queued' },
    ]);
    expect((await t.pool.query('SELECT 1 FROM github_accounts WHERE user_id = $1', [user.id])).rows).toEqual([]);
  });

  it("takes the account's own passkey instead of the password, and not another account's", async () => {
    const withPasskey = async () => {
      const signedIn = await signedInClient(t.app, t.pool);
      const authenticator = createSoftAuthenticator('http://shop.test');
      const options = (await signedIn.client.post('/api/account/passkeys/options')).json();
      const added = await signedIn.client.post('/api/account/passkeys', {
        name: 'Laptop',
        response: authenticator.register(options),
      });
      expect(added.statusCode).toBe(200);
      return { ...signedIn, authenticator };
    };
    const { client, user, authenticator } = await withPasskey();
    const stranger = await withPasskey();
    expect((await client.post('/api/account/identity')).json()).toMatchObject({ hasPassword: true, passkeys: 1 });
    const answer = async (who: typeof authenticator) =>
      who.authenticate((await client.post('/api/passkeys/sign-in/options')).json());

    const foreign = await client.post('/api/account/delete', {
      confirmation: 'DELETE',
      passkey: await answer(stranger.authenticator),
    });
    expect(foreign.statusCode).toBe(422);
    expect(await client.user()).toMatchObject({ id: user.id });
    const own = await client.post('/api/account/delete', {
      confirmation: 'DELETE',
      passkey: await answer(authenticator),
    });
    expect(own.statusCode).toBe(200);
    expect(
      (await t.pool.query('SELECT deleted_at FROM users WHERE id = $1', [user.id])).rows[0].deleted_at,
    ).not.toBeNull();
    expect((await t.pool.query('SELECT 1 FROM passkeys WHERE user_id = $1', [user.id])).rows).toEqual([]);
  });

  it('asks a Google-only account for a Google sign-in of the last 10 minutes', async () => {
    const user = await createUser(t.pool);
    await t.pool.query("UPDATE users SET password_hash = NULL, google_sub = 'google-123' WHERE id = $1", [user.id]);
    const client = await createClient(t.app);
    await signInAs(client, user.id, '20 minutes');
    const stale = await client.post('/api/account/delete', { confirmation: 'DELETE' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().message).toMatch(/Sign in with Google again/);
    expect((await client.post('/api/account/identity')).json()).toEqual({
      email: user.email,
      hasPassword: false,
      google: true,
      passkeys: 0,
    });
    await signInAs(client, user.id, '1 minute');
    expect((await client.post('/api/account/delete', { confirmation: 'DELETE' })).statusCode).toBe(200);
  });
});

describe('e-mail change', () => {
  it('asks a sign-in of the last 15 minutes before sending a link to a new address', async () => {
    const { client, user } = await signedInClient(t.app, t.pool, { name: 'Stale' });
    await t.deliverMail();
    const sent = t.mails.length;
    await t.pool.query("UPDATE sessions SET created_at = now() - interval '16 minutes' WHERE token_hash = $1", [
      hashSessionToken(client.jar.get('kitshop_session')!),
    ]);
    const stale = await client.post('/api/account/email', { email: `taken-over-${user.id}@example.com` });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({
      message: 'For your security, please sign in again to change your e-mail address.',
    });
    await t.deliverMail();
    expect(t.mails.length).toBe(sent);
    const fresh = await createClient(t.app);
    await fresh.post('/api/login', { email: user.email, password: user.password });
    expect((await fresh.post('/api/account/email', { email: `moved-fresh-${user.id}@example.com` })).statusCode).toBe(
      200,
    );
  });

  it('moves the account only when its own session confirms the link mailed to the new address, once', async () => {
    const { client, user } = await signedInClient(t.app, t.pool, { name: 'Mover' });
    const newEmail = `moved-${user.id}@example.com`;
    const res = await client.post('/api/account/email', { email: newEmail });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toContain(newEmail);
    await t.deliverMail();
    expect(lastMailTo(user.email)!.text).toContain(newEmail);
    const link = linkIn(lastMailTo(newEmail)!.text)!;
    expect(link).toMatch(/^http:\/\/shop\.test\/email\/change\?token=[\w-]+&email=/);
    // Nothing changed yet.
    expect(
      (await createClient(t.app).then((c) => c.post('/api/login', { email: user.email, password: user.password })))
        .statusCode,
    ).toBe(200);

    const params = new URL(link).searchParams;
    const body = { token: params.get('token'), email: params.get('email') };
    const tampered = await client.post('/api/account/email/confirm', { ...body, email: 'x@example.com' });
    expect(tampered.statusCode).toBe(422);
    const confirmed = await client.post('/api/account/email/confirm', body);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toContain(newEmail);
    const reused = await client.post('/api/account/email/confirm', body);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toMatch(/invalid, was already used or has expired/);

    const oldLogin = await (await createClient(t.app)).post('/api/login', {
      email: user.email,
      password: user.password,
    });
    expect(oldLogin.statusCode).toBe(422);
    const newLogin = await (await createClient(t.app)).post('/api/login', { email: newEmail, password: user.password });
    expect(newLogin.statusCode).toBe(200);
  });

  it('sends no link for an address another account has, refuses its own and a bad one, and expires after 60 minutes', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const other = await createUser(t.pool);
    expect((await client.post('/api/account/email', { email: other.email })).statusCode).toBe(200);
    await t.deliverMail();
    const taken = lastMailTo(other.email)!;
    expect(taken.subject).toMatch(/offered for another/);
    expect(linkIn(taken.text)).toBeUndefined();
    const own = await client.post('/api/account/email', { email: user.email.toUpperCase() });
    expect(own.statusCode).toBe(422);
    expect(own.json().message).toMatch(/already your e-mail address/);
    expect((await client.post('/api/account/email', { email: 'not-an-address' })).statusCode).toBe(422);

    const newEmail = `late-${user.id}@example.com`;
    await client.post('/api/account/email', { email: newEmail });
    await t.deliverMail();
    const params = new URL(linkIn(lastMailTo(newEmail)!.text)!).searchParams;
    await t.pool.query("UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1", [
      user.id,
    ]);
    const late = await client.post('/api/account/email/confirm', { token: params.get('token'), email: newEmail });
    expect(late.statusCode).toBe(422);
    expect((await t.pool.query('SELECT email FROM users WHERE id = $1', [user.id])).rows[0].email).toBe(user.email);
  });

  /** Asks to move this fresh buyer's account to `newEmail`; answers the link's body. */
  async function askForChange(client: Client, newEmail: string) {
    expect((await client.post('/api/account/email', { email: newEmail })).statusCode).toBe(200);
    await t.deliverMail();
    const params = new URL(linkIn(lastMailTo(newEmail)!.text)!).searchParams;
    return { token: params.get('token'), email: params.get('email') };
  }
  const emailOf = async (userId: number) =>
    (await t.pool.query('SELECT email FROM users WHERE id = $1', [userId])).rows[0].email as string;

  it("changes nothing for a link opened signed out or by another account's session, and keeps it for its own", async () => {
    const { client, user } = await signedInClient(t.app, t.pool, { name: 'Asker' });
    const newEmail = `asked-${user.id}@example.com`;
    const body = await askForChange(client, newEmail);

    // A mail scanner, or anyone else who has the link, is signed out.
    const scanner = await createClient(t.app);
    const signedOut = await scanner.post('/api/account/email/confirm', body);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({
      message: 'Sign in to the account that asked for this change to confirm your new e-mail address.',
    });
    const stranger = (await signedInClient(t.app, t.pool, { name: 'Stranger' })).client;
    const otherAccount = await stranger.post('/api/account/email/confirm', body);
    expect(otherAccount.statusCode).toBe(403);
    expect(otherAccount.json()).toEqual({ message: expect.stringMatching(/asked for by another account/) });
    expect(await emailOf(user.id)).toBe(user.email);
    expect(
      (
        await t.pool.query("SELECT used_at FROM email_tokens WHERE user_id = $1 AND purpose = 'email_change'", [
          user.id,
        ])
      ).rows,
    ).toEqual([{ used_at: null }]);

    // Another session of the same account, after all that, still can.
    const again = await createClient(t.app);
    await again.post('/api/login', { email: user.email, password: user.password });
    const confirmed = await again.post('/api/account/email/confirm', body);
    expect(confirmed.statusCode).toBe(200);
    expect(await emailOf(user.id)).toBe(newEmail);
  });

  it("refuses an owner's address, from OWNER_EMAILS or the owners table in any case, and sends no link", async () => {
    const { client, user } = await signedInClient(t.app, t.pool, { name: 'Claimer' });
    await t.deliverMail();
    const sent = t.mails.length;
    const stored = `named-owner-${user.id}@shop.test`;
    await t.pool.query('INSERT INTO owners (email) VALUES ($1)', [stored]);
    for (const ownerEmail of ['boss@shop.test', 'BOSS@Shop.Test', stored, stored.toUpperCase()]) {
      const res = await client.post('/api/account/email', { email: ownerEmail });
      expect(res.statusCode, ownerEmail).toBe(422);
      expect(res.json()).toEqual({
        message: expect.stringMatching(/^email: This address is reserved for the shop's owners/),
      });
    }
    await t.deliverMail();
    expect(t.mails.length).toBe(sent);
    expect(
      (
        await t.pool.query(
          "SELECT count(*)::int AS n FROM email_tokens WHERE user_id = $1 AND purpose = 'email_change'",
          [user.id],
        )
      ).rows[0].n,
    ).toBe(0);
    expect(await emailOf(user.id)).toBe(user.email);
    const me = await client.get('/api/admin/me');
    expect(me.statusCode).toBe(403);
  });

  it("refuses the confirmation when the address became an owner's after the link was sent", async () => {
    const { client, user } = await signedInClient(t.app, t.pool, { name: 'Early' });
    const newEmail = `future-owner-${user.id}@example.com`;
    const body = await askForChange(client, newEmail);
    await t.pool.query('INSERT INTO owners (email) VALUES ($1)', [newEmail]);
    const res = await client.post('/api/account/email/confirm', body);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: "This address is now reserved for the shop's owners, so your address was not changed.",
    });
    expect(await emailOf(user.id)).toBe(user.email);
    expect((await client.get('/api/admin/me')).statusCode).toBe(403);
  });
});
