import { OAuth2Server } from 'oauth2-mock-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../../tests/factories/users.ts';
import { createClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { createGoogleSignIn } from '../../integrations/oidc/google.ts';

let t: TestApp;
let issuer: OAuth2Server;

beforeAll(async () => {
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('RS256');
  await issuer.start(0, '127.0.0.1');
  const google = createGoogleSignIn({
    issuer: issuer.issuer.url!,
    clientId: 'kitshop-test',
    clientSecret: 'kitshop-secret',
    redirectUri: 'http://shop.test/google/callback',
  });
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test' }, { google });
});
afterAll(async () => {
  await t.close();
  await issuer.stop();
});

/** The whole round trip: our redirect, the issuer's authorize step, our callback. */
async function signInWithGoogle(claims: Record<string, unknown>, returnPath = 'checkout') {
  const browser = await createClient(t.app);
  // Every token the issuer signs during this round trip (access and ID token) carries the claims.
  const addClaims = (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, claims);
  issuer.service.removeAllListeners('beforeTokenSigning');
  issuer.service.on('beforeTokenSigning', addClaims);
  const start = await browser.get(`/google/redirect?returnPath=${encodeURIComponent(returnPath)}`);
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('state')).toBeTruthy();
  expect(authorize.searchParams.get('nonce')).toBeTruthy();
  const back = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(back.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe('http://shop.test/google/callback');
  const done = await browser.get(`/google/callback${callback.search}`);
  return { browser, done };
}

describe('Google sign-in', () => {
  it('asks the two-step code after Google too: no session until the code', async () => {
    const user = await createUser(t.pool, { email: 'two-step@gmail.test' });
    await t.pool.query("UPDATE users SET google_sub = 'g-two-step' WHERE id = $1", [user.id]);
    // Two-step sign-in turned on the way the Profile tab does it.
    const client = await createClient(t.app);
    await client.post('/api/login', { email: user.email, password: user.password });
    const setup = (await client.post('/api/account/two-step/setup')).json();
    const { generate } = await import('otplib');
    await client.post('/api/account/two-step/confirm', { code: await generate({ secret: setup.secret }) });

    const { browser, done } = await signInWithGoogle({ sub: 'g-two-step', email: user.email, email_verified: true });
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/login?step=code');
    expect(browser.jar.get('kitshop_session')).toBeUndefined();
    const code = await generate({ secret: setup.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const finished = await browser.post('/api/login/code', { code });
    expect(finished.statusCode).toBe(200);
    expect(finished.json().user.id).toBe(user.id);
  });

  it('signs in a new Google account that arrives twice at once (two tabs) as one account, never a 5xx', async () => {
    const claims = { sub: 'g-twice-1', email: 'twice@gmail.test', email_verified: true, name: 'Twice' };
    const addClaims = (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, claims);
    issuer.service.removeAllListeners('beforeTokenSigning');
    issuer.service.on('beforeTokenSigning', addClaims);
    // Each tab gets as far as the issuer's answer; then all callbacks arrive together.
    const tabs = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const browser = await createClient(t.app);
        const start = await browser.get('/google/redirect?returnPath=checkout');
        const back = await fetch(new URL(start.headers.location as string), { redirect: 'manual' });
        return { browser, search: new URL(back.headers.get('location')!).search };
      }),
    );
    // A lock that lets every sign-in look for the account but holds its insert, so they truly race.
    // Its own connections: the app's pool (5) is busy with the sign-ins.
    const locker = new pg.Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE users IN SHARE MODE');
    const callbacks = Promise.all(tabs.map((tab) => tab.browser.get(`/google/callback${tab.search}`)));
    for (let waited = 0; waited < 200; waited++) {
      const { rows } = await locker.query(
        "SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'users'::regclass",
      );
      if (rows[0].n >= 2) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await locker.query('COMMIT');
    await locker.end();
    const done = await callbacks;
    expect(done.map((d) => d.statusCode)).toEqual(tabs.map(() => 302));
    const { rows } = await t.pool.query("SELECT count(*)::int AS n FROM users WHERE email = 'twice@gmail.test'");
    expect(rows[0].n).toBe(1);
  });

  it('creates a user keyed by sub and lands on the return path, signed in', async () => {
    const { browser, done } = await signInWithGoogle({
      sub: 'g-new-1',
      email: 'new.person@gmail.test',
      email_verified: true,
      name: 'New Person',
    });
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/checkout');
    const user = await browser.user();
    expect(user).toEqual({ id: expect.any(Number), name: 'New Person' });
    const again = await signInWithGoogle(
      { sub: 'g-new-1', email: 'changed@gmail.test', email_verified: true, name: 'Renamed' },
      '',
    );
    expect(again.done.headers.location).toBe('/user-panel');
    expect(await again.browser.user()).toEqual(user);
  });

  it('links an existing account with the same e-mail only when Google says it is verified', async () => {
    const existing = await createUser(t.pool, { email: 'linked@gmail.test', name: 'Existing' });
    const refused = await signInWithGoogle({ sub: 'g-link-1', email: 'linked@gmail.test', email_verified: false });
    expect(refused.done.headers.location).toBe('/login?google=unverified');
    expect(await refused.browser.user()).toEqual({});

    const linked = await signInWithGoogle(
      { sub: 'g-link-1', email: 'LINKED@gmail.test', email_verified: true },
      'product/alpha-kit',
    );
    expect(linked.done.headers.location).toBe('/product/alpha-kit');
    expect(await linked.browser.user()).toEqual({ id: existing.id, name: 'Existing' });
  });

  it('never creates an account from an e-mail Google has not verified', async () => {
    const { browser, done } = await signInWithGoogle({
      sub: 'g-unverified-new',
      email: 'unverified.new@gmail.test',
      email_verified: false,
      name: 'Not Verified',
    });
    expect(done.headers.location).toBe('/login?google=unverified');
    expect(await browser.user()).toEqual({});
    const { rows } = await t.pool.query("SELECT id FROM users WHERE email = 'unverified.new@gmail.test'");
    expect(rows).toEqual([]);
    const noEmail = await signInWithGoogle({ sub: 'g-no-email', email_verified: true });
    expect(noEmail.done.headers.location).toBe('/login?google=unverified');
  });

  it('takes over an account whose address was never verified: its password, sessions and links stop working', async () => {
    // The attacker signs up with the victim's address and a password of their own, and never verifies.
    const attacker = await createClient(t.app, { ip: '10.9.0.1' });
    const victimEmail = 'victim@gmail.test';
    const registered = await attacker.post('/api/register', {
      name: 'Attacker',
      email: victimEmail,
      password: 'chosen-by-the-intruder',
    });
    expect(registered.statusCode).toBe(200);
    const {
      rows: [account],
    } = await t.pool.query('SELECT id FROM users WHERE email = $1', [victimEmail]);
    // A session and a reset link the account might hold from before (sessions of an unverified
    // account came from the old Google sign-in that trusted unverified addresses).
    await t.pool.query(
      "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('stale-session-hash', $1, now() + interval '1 hour')",
      [account.id],
    );
    await t.pool.query(
      "INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, 'reset', 'stale-reset-hash', now() + interval '1 hour')",
      [account.id],
    );

    const victim = await signInWithGoogle(
      { sub: 'g-victim', email: victimEmail, email_verified: true, name: 'Real Victim' },
      '',
    );
    expect(victim.done.headers.location).toBe('/user-panel');
    const login = await attacker.post('/api/login', { email: victimEmail, password: 'chosen-by-the-intruder' });
    expect(login.json().message).toBe('These credentials do not match our records.');
    expect(login.statusCode).toBe(422);
    // The victim holds the account, under the name Google gave.
    expect(await victim.browser.user()).toEqual({ id: account.id, name: 'Real Victim' });

    const { rows } = await t.pool.query(
      'SELECT password_hash, google_sub, email_verified_at IS NOT NULL AS verified FROM users WHERE id = $1',
      [account.id],
    );
    expect(rows).toEqual([{ password_hash: null, google_sub: 'g-victim', verified: true }]);
    const sessions = await t.pool.query('SELECT token_hash FROM sessions WHERE user_id = $1', [account.id]);
    expect(sessions.rows.map((r) => r.token_hash)).not.toContain('stale-session-hash');
    expect(sessions.rows).toHaveLength(1); // the victim's own, just created
    const open = await t.pool.query('SELECT purpose FROM email_tokens WHERE user_id = $1 AND used_at IS NULL', [
      account.id,
    ]);
    expect(open.rows).toEqual([]);
  });

  it('keeps the password of a verified account it links to', async () => {
    const existing = await createUser(t.pool, { email: 'keeps.password@gmail.test', name: 'Verified Owner' });
    const linked = await signInWithGoogle({ sub: 'g-keep-1', email: existing.email, email_verified: true });
    expect(await linked.browser.user()).toEqual({ id: existing.id, name: 'Verified Owner' });
    const login = await (await createClient(t.app)).post('/api/login', {
      email: existing.email,
      password: existing.password,
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses a callback whose state does not match, or that comes without the sign-in cookie', async () => {
    const browser = await createClient(t.app);
    const start = await browser.get('/google/redirect?returnPath=cart');
    const back = await fetch(new URL(start.headers.location as string), { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    callback.searchParams.set('state', 'forged');
    expect((await browser.get(`/google/callback${callback.search}`)).headers.location).toBe('/login?google=failed');
    const stranger = await createClient(t.app);
    expect((await stranger.get(`/google/callback${callback.search}`)).headers.location).toBe('/login?google=expired');
  });

  it('refuses an ID token for another client, from another issuer, with another nonce, expired, changed after signing or unsigned: nobody is signed in', async () => {
    const identity = { sub: 'g-forged', email: 'forged@gmail.test', email_verified: true };
    const now = Math.floor(Date.now() / 1000);
    for (const forged of [
      { aud: 'another-client' },
      { iss: 'https://accounts.evil.example' },
      { nonce: 'a-nonce-this-browser-never-sent' },
      { iat: now - 7200, exp: now - 3600 },
    ]) {
      const { browser, done } = await signInWithGoogle({ ...identity, ...forged });
      expect(done.statusCode, JSON.stringify(forged)).toBe(302);
      expect(done.headers.location, JSON.stringify(forged)).toBe('/login?google=failed');
      expect(browser.jar.get('kitshop_session')).toBeUndefined();
    }
    // A token whose claims were changed after signing, and one that says it is unsigned (alg none).
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const tamper = (idToken: string, unsigned: boolean) => {
      const [header, payload, signature] = idToken.split('.') as [string, string, string];
      const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'g-forged-other' };
      return unsigned ? `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.` : `${header}.${b64(claims)}.${signature}`;
    };
    for (const unsigned of [false, true]) {
      issuer.service.once('beforeResponse', (response: { body: Record<string, unknown> }) => {
        if (typeof response.body.id_token === 'string')
          response.body.id_token = tamper(response.body.id_token, unsigned);
      });
      const { browser, done } = await signInWithGoogle(identity);
      expect(done.headers.location, `unsigned: ${unsigned}`).toBe('/login?google=failed');
      expect(browser.jar.get('kitshop_session')).toBeUndefined();
      issuer.service.removeAllListeners('beforeResponse');
    }
    expect((await t.pool.query("SELECT 1 FROM users WHERE google_sub LIKE 'g-forged%'")).rowCount).toBe(0);
    // The same identity with the issuer's own claims signs in: the refusals above were the claims.
    const { browser } = await signInWithGoogle(identity);
    expect(browser.jar.get('kitshop_session')).toBeDefined();
  });

  it('ignores a return path that points off the shop', async () => {
    const { done } = await signInWithGoogle(
      { sub: 'g-evil', email: 'x@gmail.test', email_verified: true },
      '//evil.example/x',
    );
    expect(done.headers.location).toBe('/user-panel');
  });
  it('deletes a Google-only account after a fresh Google sign-in (reauth asks Google with max_age=0); the identity may come back as a new account', async () => {
    const start = await (await createClient(t.app)).get(
      '/google/redirect?returnPath=user-panel%3Ftab%3Dprofile&reauth=1',
    );
    expect(new URL(start.headers.location as string).searchParams.get('max_age')).toBe('0');
    const claims = { sub: 'g-leaving', email: 'leaving@gmail.test', email_verified: true };
    const { browser, done } = await signInWithGoogle(claims, 'user-panel?tab=profile');
    expect(done.headers.location).toBe('/user-panel?tab=profile');
    const before = await browser.user();
    expect((await browser.post('/api/account/delete', { confirmation: 'DELETE' })).statusCode).toBe(200);
    expect(await browser.user()).toEqual({});
    const again = await signInWithGoogle(claims);
    const after = await again.browser.user();
    expect(after.id).not.toBe(before.id);
    expect(after.name).toBe('leaving');
  });
});
