import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../../tests/factories/users.ts';
import { type Client, createClient, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../../../../tests/setup/test-app.ts';
import { createSoftAuthenticator } from '../../../../tests/setup/webauthn.ts';
import { sweepExpiredCounters } from '../../http/rate-limit.ts';
import { hashSessionToken, sweepEndedSessions } from '../../http/session.ts';
import { sweepSpentLinks } from './accounts.service.ts';
import { sweepExpiredChallenges } from './two-step.service.ts';

const ORIGIN = 'http://shop.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN });
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);
const mailsTo = (email: string) => t.mails.filter((m) => m.to === email);
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

async function signIn(user: { email: string; password: string }, headers: Record<string, string> = {}) {
  const client = await createClient(t.app);
  const res = await client.post('/api/login', { email: user.email, password: user.password }, headers);
  return { client, res };
}

/** Turns two-step sign-in on for a signed-in client; answers the secret and the recovery codes. */
async function turnOnTwoStep(client: Client) {
  const setup = await client.post('/api/account/two-step/setup');
  expect(setup.statusCode).toBe(200);
  const { secret, qr, uri } = setup.json();
  expect(qr).toMatch(/^data:image\/png;base64,/);
  expect(uri).toContain(`secret=${secret}`);
  const confirmed = await client.post('/api/account/two-step/confirm', { code: await generate({ secret }) });
  expect(confirmed.statusCode).toBe(200);
  return { secret: secret as string, codes: confirmed.json().recovery_codes as string[] };
}

describe('sessions', () => {
  it('lists the account’s sessions with device, address and this device; ending the other makes its next call 401', async () => {
    const user = await createUser(t.pool);
    const { client: here } = await signIn(user);
    const { client: there } = await signIn(user, { 'user-agent': FIREFOX });
    const list = await here.get('/api/account/sessions');
    expect(list.statusCode).toBe(200);
    const sessions = list.json().sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: true, method: 'password', ip: '127.0.0.1' });
    expect(sessions[1]).toMatchObject({ current: false, device: 'Firefox on Windows' });
    expect(JSON.stringify(sessions)).not.toContain(hashSessionToken(here.jar.get('kitshop_session')!));

    expect((await here.post(`/api/account/sessions/${sessions[1].id}/sign-out`)).statusCode).toBe(200);
    expect((await there.get('/api/account/sessions')).statusCode).toBe(401);
    expect((await here.get('/api/account/sessions')).json().sessions).toHaveLength(1);
    // Another account's session id ends nothing.
    const { client: stranger } = await signedInClient(t.app, t.pool);
    expect((await stranger.post(`/api/account/sessions/${sessions[0].id}/sign-out`)).statusCode).toBe(404);
    expect((await here.get('/api/account/sessions')).statusCode).toBe(200);
  });

  it('signs out everywhere else and keeps this session', async () => {
    const user = await createUser(t.pool);
    const { client: here } = await signIn(user);
    const others = [await signIn(user), await signIn(user)];
    expect((await here.post('/api/account/sessions/sign-out-others')).statusCode).toBe(200);
    for (const other of others) expect((await other.client.get('/api/account/sessions')).statusCode).toBe(401);
    expect((await here.get('/api/account/sessions')).json().sessions).toHaveLength(1);
  });

  it('answers 401 signed out and 419 without the CSRF header', async () => {
    const anonymous = await createClient(t.app);
    expect((await anonymous.get('/api/account/sessions')).statusCode).toBe(401);
    expect((await anonymous.post('/api/account/sessions/sign-out-others')).statusCode).toBe(401);
    const { client } = await signedInClient(t.app, t.pool);
    expect(
      (await client.post('/api/account/sessions/sign-out-others', {}, { 'x-csrf-token': 'nope' })).statusCode,
    ).toBe(419);
  });

  it('mails a sign-in from a new device, not one from a device the account used before', async () => {
    const user = await createUser(t.pool);
    await signIn(user);
    await signIn(user);
    await t.deliverMail();
    expect(mailsTo(user.email)).toHaveLength(0);
    await signIn(user, { 'user-agent': FIREFOX });
    await t.deliverMail();
    expect(mailsTo(user.email).map((m) => m.subject)).toEqual(['New sign-in to your Kitshop account']);
    expect(mailsTo(user.email)[0]!.text).toContain('Firefox on Windows');
  });
});

describe('password rules', () => {
  it('refuses a password holding the e-mail’s local part or the name; takes up to 128 characters', async () => {
    const client = await createClient(t.app);
    const register = (name: string, email: string, password: string) =>
      client.post('/api/register', { name, email, password });
    const local = await register('Barbara Liskov', 'substitution@example.com', 'my-substitution-99');
    expect(local.statusCode).toBe(422);
    expect(local.json().message).toMatch(/name or your email/);
    expect((await register('Barbara Liskov', 'bl1@example.com', 'LISKOV-rules-2024')).statusCode).toBe(422);
    expect(
      (await register('Barbara Liskov', 'bl2@example.com', 'x'.repeat(60) + 'q7!'.repeat(22) + 'zz')).statusCode,
    ).toBe(200);
    expect((await register('Barbara Liskov', 'bl3@example.com', 'q7!'.repeat(43))).statusCode).toBe(422);
  });

  it('refuses the name in a changed password too', async () => {
    const { client } = await signedInClient(t.app, t.pool, { name: 'Edsger Dijkstra' });
    const res = await client.post('/api/changePassword', {
      password: 'dijkstra-shortest-1!',
      password_confirmation: 'dijkstra-shortest-1!',
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('two-step sign-in (TOTP)', () => {
  it('asks a code after the password, with no session before it; a right code signs in', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const { secret, codes } = await turnOnTwoStep(client);
    expect(codes).toHaveLength(10);
    const { rows } = await t.pool.query('SELECT totp_secret FROM users WHERE id = $1', [user.id]);
    expect(rows[0].totp_secret).not.toContain(secret);

    const { client: next, res } = await signIn(user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ second_step: true, message: expect.stringMatching(/6-digit code/) });
    expect(next.jar.get('kitshop_session')).toBeUndefined();
    expect((await next.get('/api/account/sessions')).statusCode).toBe(401);

    // The setup's code was this step's: the next step's code signs in.
    const done = await next.post('/api/login/code', { code: await generate({ secret, epoch: now() + 30 }) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ user: { id: user.id, name: user.name }, message: 'Login Successfull' });
    expect((await next.get('/api/account/sessions')).json().sessions[0]).toMatchObject({
      current: true,
      method: 'code',
    });
  });

  it('refuses a code outside the window and one already used within its window', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const { secret } = await turnOnTwoStep(client);
    const { client: next } = await signIn(user);
    const stale = await next.post('/api/login/code', { code: await generate({ secret, epoch: now() - 120 }) });
    expect(stale.statusCode).toBe(422);
    const ahead = await next.post('/api/login/code', { code: await generate({ secret, epoch: now() + 120 }) });
    expect(ahead.statusCode).toBe(422);
    const code = await generate({ secret, epoch: now() + 30 });
    expect((await next.post('/api/login/code', { code })).statusCode).toBe(200);
    const { client: again } = await signIn(user);
    const reused = await again.post('/api/login/code', { code });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toMatch(/already used/);
  });

  it('throttles after 5 failed codes: the right code then gets 429', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const { secret } = await turnOnTwoStep(client);
    const { client: next } = await signIn(user);
    for (let i = 0; i < 5; i++) expect((await next.post('/api/login/code', { code: '000000' })).statusCode).toBe(422);
    const right = await next.post('/api/login/code', { code: await generate({ secret, epoch: now() + 30 }) });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/Too many failed code attempts/);
  });

  it('takes a recovery code once; codes are stored as salted argon2id hashes', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const { codes } = await turnOnTwoStep(client);
    const { rows } = await t.pool.query('SELECT code_hash FROM recovery_codes WHERE user_id = $1', [user.id]);
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row.code_hash).toMatch(/^\$argon2id\$/);
    const { client: first } = await signIn(user);
    expect((await first.post('/api/login/code', { code: codes[3]!.toUpperCase() })).statusCode).toBe(200);
    const { client: second } = await signIn(user);
    expect((await second.post('/api/login/code', { code: codes[3] })).statusCode).toBe(422);
    const security = await first.get('/api/account/sign-in-security');
    expect(security.json()).toMatchObject({ two_step: true, recovery_codes_left: 9 });
  });

  it('refuses a code without a pending sign-in, and after the pending sign-in expired', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const { secret } = await turnOnTwoStep(client);
    const nobody = await createClient(t.app);
    expect((await nobody.post('/api/login/code', { code: '123456' })).statusCode).toBe(401);
    const { client: late } = await signIn(user);
    await t.pool.query(
      "UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE purpose = 'second-step' AND user_id = $1",
      [user.id],
    );
    const res = await late.post('/api/login/code', { code: await generate({ secret, epoch: now() + 30 }) });
    expect(res.statusCode).toBe(401);
  });

  it('turning it on rotates the session id, ends the other sessions and mails; turning it off needs the password', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const { client: other } = await signIn(user);
    const before = client.jar.get('kitshop_session');
    await turnOnTwoStep(client);
    expect(client.jar.get('kitshop_session')).not.toBe(before);
    expect((await client.get('/api/account/sessions')).statusCode).toBe(200);
    expect((await other.get('/api/account/sessions')).statusCode).toBe(401);

    const { client: third, res } = await signIn(user);
    expect(res.json().second_step).toBe(true);
    const wrong = await client.post('/api/account/two-step/disable', { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(422);
    expect((await client.post('/api/account/two-step/disable', { password: user.password })).statusCode).toBe(200);
    expect((await client.get('/api/account/sign-in-security')).json()).toMatchObject({
      two_step: false,
      recovery_codes_left: 0,
    });
    expect(third.jar.get('kitshop_session')).toBeUndefined();
    expect((await signIn(user)).res.json().message).toBe('Login Successfull');
    await t.deliverMail();
    expect(mailsTo(user.email).map((m) => m.subject)).toEqual([
      'Two-step sign-in was turned on for your Kitshop account',
      'Two-step sign-in was turned off for your Kitshop account',
    ]);
  });

  it('asks a recent sign-in before setting up', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await t.pool.query("UPDATE sessions SET created_at = now() - interval '20 minutes' WHERE user_id = $1", [user.id]);
    expect((await client.post('/api/account/two-step/setup')).statusCode).toBe(403);
  });
});

describe('passkeys (WebAuthn)', () => {
  async function addPasskey(
    client: Client,
    authenticator: ReturnType<typeof createSoftAuthenticator>,
    name = 'Laptop',
  ) {
    const options = (await client.post('/api/account/passkeys/options')).json();
    const res = await client.post('/api/account/passkeys', { name, response: authenticator.register(options) });
    expect(res.statusCode).toBe(200);
    return res.json().passkey as { id: number };
  }
  const signInOptions = async (client: Client) => (await client.post('/api/passkeys/sign-in/options')).json();

  it('adds a passkey and signs in with it, no e-mail or password; the account is mailed', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const authenticator = createSoftAuthenticator(ORIGIN);
    await addPasskey(client, authenticator);
    expect((await client.get('/api/account/sign-in-security')).json().passkeys).toEqual([
      expect.objectContaining({ name: 'Laptop', last_used_at: null }),
    ]);
    const visitor = await createClient(t.app);
    const res = await visitor.post('/api/passkeys/sign-in', {
      response: authenticator.authenticate(await signInOptions(visitor)),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: user.id, name: user.name }, message: 'Login Successfull' });
    expect((await visitor.get('/api/account/sessions')).json().sessions[0]).toMatchObject({ method: 'passkey' });
    await t.deliverMail();
    expect(mailsTo(user.email).map((m) => m.subject)).toEqual(['A passkey was added to your Kitshop account']);
  });

  it('refuses a wrong answer: a bad signature, another origin, a passkey this shop never registered', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    const authenticator = createSoftAuthenticator(ORIGIN);
    await addPasskey(client, authenticator);
    const visitor = await createClient(t.app);
    const bad = await visitor.post('/api/passkeys/sign-in', {
      response: authenticator.authenticate(await signInOptions(visitor), { badSignature: true }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/could not be verified/);
    const elsewhere = await visitor.post('/api/passkeys/sign-in', {
      response: authenticator.authenticate(await signInOptions(visitor), { origin: 'http://evil.test' }),
    });
    expect(elsewhere.statusCode).toBe(422);
    const stranger = createSoftAuthenticator(ORIGIN);
    stranger.register({ challenge: 'x', user: { id: 'x' } });
    const unknown = await visitor.post('/api/passkeys/sign-in', {
      response: stranger.authenticate(await signInOptions(visitor)),
    });
    expect(unknown.statusCode).toBe(422);
    expect(visitor.jar.get('kitshop_session')).toBeUndefined();
    // A registration for another origin is refused too.
    const options = (await client.post('/api/account/passkeys/options')).json();
    const foreign = await client.post('/api/account/passkeys', {
      name: 'Phone',
      response: authenticator.register(options, { origin: 'http://evil.test' }),
    });
    expect(foreign.statusCode).toBe(422);
  });

  it('refuses a replayed answer and an answer to an expired challenge', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    const authenticator = createSoftAuthenticator(ORIGIN);
    await addPasskey(client, authenticator);
    const visitor = await createClient(t.app);
    const answer = authenticator.authenticate(await signInOptions(visitor));
    expect((await visitor.post('/api/passkeys/sign-in', { response: answer })).statusCode).toBe(200);
    const replay = await (await createClient(t.app)).post('/api/passkeys/sign-in', { response: answer });
    expect(replay.statusCode).toBe(422);

    const late = await createClient(t.app);
    const options = await signInOptions(late);
    await t.pool.query(
      "UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE purpose = 'passkey-sign-in'",
    );
    const expired = await late.post('/api/passkeys/sign-in', { response: authenticator.authenticate(options) });
    expect(expired.statusCode).toBe(422);
    // A counter that goes back (a cloned authenticator) is refused.
    const cloned = await late.post('/api/passkeys/sign-in', {
      response: authenticator.authenticate(await signInOptions(late), { counter: 1 }),
    });
    expect(cloned.statusCode).toBe(422);
  });

  it('ends the sessions a passkey started when it is removed, and only those', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const authenticator = createSoftAuthenticator(ORIGIN);
    const passkey = await addPasskey(client, authenticator);
    const byPasskey = await createClient(t.app);
    await byPasskey.post('/api/passkeys/sign-in', {
      response: authenticator.authenticate(await signInOptions(byPasskey)),
    });
    const { client: byPassword } = await signIn(user);
    expect((await client.post(`/api/account/passkeys/${passkey.id}/remove`)).statusCode).toBe(200);
    expect((await byPasskey.get('/api/account/sessions')).statusCode).toBe(401);
    expect((await byPassword.get('/api/account/sessions')).statusCode).toBe(200);
    expect((await client.get('/api/account/sign-in-security')).json().passkeys).toEqual([]);
    // Another account cannot remove it (it is gone anyway: 404 either way).
    expect((await client.post(`/api/account/passkeys/${passkey.id}/remove`)).statusCode).toBe(404);
  });

  it('turns two-step sign-in off with a passkey instead of the password', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    const authenticator = createSoftAuthenticator(ORIGIN);
    await addPasskey(client, authenticator);
    await turnOnTwoStep(client);
    const res = await client.post('/api/account/two-step/disable', {
      passkey: authenticator.authenticate(await signInOptions(client)),
    });
    expect(res.statusCode).toBe(200);
    expect((await client.get('/api/account/sign-in-security')).json().two_step).toBe(false);
  });
});

describe('housekeeping', () => {
  it('deletes expired counters, sessions, links and challenges, and nothing that is still live', async () => {
    const user = await createUser(t.pool);
    const q = (text: string, values: unknown[] = []) => t.pool.query(text, values);
    await q(`INSERT INTO rate_limits (key, count, reset_at) VALUES
      ('hk:old', 3, now() - interval '1 second'), ('hk:live', 3, now() + interval '1 minute')`);
    await q(
      `INSERT INTO sessions (token_hash, user_id, expires_at, remember, last_seen_at) VALUES
      ('hk-expired', $1, now() - interval '1 second', true, now()),
      ('hk-idle', $1, now() + interval '1 hour', false, now() - interval '3 hours'),
      ('hk-remembered', $1, now() + interval '1 day', true, now() - interval '3 hours'),
      ('hk-live', $1, now() + interval '1 hour', false, now())`,
      [user.id],
    );
    await q(
      `INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at, used_at) VALUES
      ($1, 'reset', 'hk-used', now() + interval '1 hour', now()),
      ($1, 'reset', 'hk-expired', now() - interval '1 second', NULL),
      ($1, 'verify', 'hk-live', now() + interval '1 hour', NULL)`,
      [user.id],
    );
    await q(
      `INSERT INTO auth_challenges (key, purpose, user_id, expires_at) VALUES
      ('hk:old', 'passkey-sign-in', NULL, now() - interval '1 second'),
      ('hk:old-step', 'second-step', $1, now() - interval '1 second'),
      ('hk:live', 'passkey-register', $1, now() + interval '5 minutes')`,
      [user.id],
    );
    for (const chore of [sweepExpiredCounters, sweepEndedSessions, sweepSpentLinks, sweepExpiredChallenges]) {
      await chore(t.db);
    }
    const keys = async (sql: string) => (await q(sql)).rows.map((r) => r.k).sort();
    expect(await keys("SELECT key AS k FROM rate_limits WHERE key LIKE 'hk:%'")).toEqual(['hk:live']);
    expect(await keys("SELECT token_hash AS k FROM sessions WHERE token_hash LIKE 'hk-%'")).toEqual([
      'hk-live',
      'hk-remembered',
    ]);
    expect(await keys("SELECT token_hash AS k FROM email_tokens WHERE token_hash LIKE 'hk-%'")).toEqual(['hk-live']);
    expect(await keys("SELECT key AS k FROM auth_challenges WHERE key LIKE 'hk:%'")).toEqual(['hk:live']);
  });
});

describe('owners of a production shop', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await createTestApp({ ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'sandbox', OWNER_EMAILS: 'boss@shop.test' });
  });
  afterAll(() => prod.close());

  it('reach no owner call until they have two-step sign-in or a passkey; sign-in says so', async () => {
    const owner = await createUser(prod.pool, { email: 'boss@shop.test', name: 'Boss' });
    const client = await createClient(prod.app);
    const login = await client.post('/api/login', { email: owner.email, password: owner.password });
    expect(login.json()).toMatchObject({ user: { owner: true }, setup_required: true });
    const refused = await client.get('/api/admin/me');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/passkey or turn on two-step/);
    expect((await client.get('/api/account/sign-in-security')).json().setup_required).toBe(true);

    const setup = (await client.post('/api/account/two-step/setup')).json();
    await client.post('/api/account/two-step/confirm', { code: await generate({ secret: setup.secret }) });
    expect((await client.get('/api/admin/me')).statusCode).toBe(200);
    // A customer of the same shop is not asked.
    const { client: buyer } = await signedInClient(prod.app, prod.pool);
    expect((await buyer.get('/api/account/sign-in-security')).json().setup_required).toBe(false);
  });

  it('keep the last passkey of an owner without two-step sign-in; a second one can go', async () => {
    const owner = await createUser(prod.pool, { email: 'last@shop.test' });
    await prod.pool.query('INSERT INTO owners (email) VALUES ($1)', [owner.email]);
    const client = await createClient(prod.app);
    await client.post('/api/login', { email: owner.email, password: owner.password });
    const authenticator = createSoftAuthenticator(PROD_ORIGIN);
    const first = await addPasskeyTo(client, authenticator, 'Laptop');
    const refused = await client.post(`/api/account/passkeys/${first.id}/remove`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/last passkey or two-step sign-in of a shop owner/);
    expect((await client.get('/api/account/sign-in-security')).json().passkeys).toHaveLength(1);
    expect((await client.get('/api/admin/me')).statusCode).toBe(200);

    const second = await addPasskeyTo(client, authenticator, 'Phone');
    expect((await client.post(`/api/account/passkeys/${second.id}/remove`)).statusCode).toBe(200);
    expect((await client.get('/api/account/sign-in-security')).json().passkeys).toHaveLength(1);
  });
});

const PROD_ORIGIN = PRODUCTION_ENV.PUBLIC_URL;

async function addPasskeyTo(client: Client, authenticator: ReturnType<typeof createSoftAuthenticator>, name: string) {
  const options = (await client.post('/api/account/passkeys/options')).json();
  const res = await client.post('/api/account/passkeys', { name, response: authenticator.register(options) });
  expect(res.statusCode).toBe(200);
  return res.json().passkey as { id: number };
}

/** A session's start moved back in time, past the recent sign-in that changes to sign-in ask for. */
async function ageSessions(app: TestApp, userId: number, minutes: number) {
  await app.pool.query('UPDATE sessions SET created_at = now() - make_interval(mins => $2) WHERE user_id = $1', [
    userId,
    minutes,
  ]);
}

describe.each([
  ['production', true],
  ['development', false],
])('an owner with a passkey on a %s shop', (_mode, production) => {
  let app: TestApp;
  const origin = production ? PROD_ORIGIN : ORIGIN;
  beforeAll(async () => {
    app = await createTestApp(
      production
        ? { ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'sandbox', OWNER_EMAILS: 'chief@shop.test' }
        : { PUBLIC_URL: ORIGIN, OWNER_EMAILS: 'chief@shop.test' },
    );
  });
  afterAll(() => app.close());

  async function ownerWithPasskey() {
    const owner = await createUser(app.pool, { email: 'chief@shop.test' });
    const authenticator = createSoftAuthenticator(origin);
    const enrolling = await createClient(app.app);
    await enrolling.post('/api/login', { email: owner.email, password: owner.password });
    await addPasskeyTo(enrolling, authenticator, 'Laptop');
    return { owner, authenticator };
  }
  afterEach(async () => {
    await app.pool.query("DELETE FROM users WHERE email = 'chief@shop.test'");
  });

  it('reaches no owner call with a password alone, and no change to how it signs in; a passkey sign-in opens both', async () => {
    const { owner, authenticator } = await ownerWithPasskey();
    const byPassword = await createClient(app.app);
    const login = await byPassword.post('/api/login', { email: owner.email, password: owner.password });
    expect(login.json().message).toBe('Login Successfull');
    const me = await byPassword.get('/api/admin/me');
    expect(me.statusCode).toBe(403);
    expect(me.json().message).toMatch(/passkey or your two-step code/);
    expect((await byPassword.get('/api/admin/summary')).statusCode).toBe(403);
    expect((await byPassword.get('/api/account/sign-in-security')).json().step_up_required).toBe(true);
    // Nor can that session add a passkey or turn on a second step of its own to keep access.
    const enrol = await byPassword.post('/api/account/passkeys/options');
    expect(enrol.statusCode).toBe(403);
    expect(enrol.json().message).toMatch(/passkey or a two-step code/);
    expect((await byPassword.post('/api/account/two-step/setup')).statusCode).toBe(403);
    const [key] = (await byPassword.get('/api/account/sign-in-security')).json().passkeys;
    expect((await byPassword.post(`/api/account/passkeys/${key.id}/remove`)).statusCode).toBe(403);
    expect((await byPassword.get('/api/account/sign-in-security')).json().passkeys).toHaveLength(1);

    const byPasskey = await createClient(app.app);
    const options = (await byPasskey.post('/api/passkeys/sign-in/options')).json();
    await byPasskey.post('/api/passkeys/sign-in', { response: authenticator.authenticate(options) });
    expect((await byPasskey.get('/api/admin/me')).statusCode).toBe(200);
    expect((await byPasskey.get('/api/account/sign-in-security')).json().step_up_required).toBe(false);
    expect((await byPasskey.post('/api/account/passkeys/options')).statusCode).toBe(200);
  });

  it('opens the console to a session that passed the two-step code after its password', async () => {
    const { owner } = await ownerWithPasskey();
    const client = await createClient(app.app);
    await client.post('/api/login', { email: owner.email, password: owner.password });
    await app.pool.query('UPDATE sessions SET second_factor = true WHERE user_id = $1', [owner.id]);
    expect((await client.get('/api/admin/me')).statusCode).toBe(200);
  });
});

describe('removing a passkey', () => {
  it('needs a recent sign-in, as adding one does; an old session changes nothing', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const authenticator = createSoftAuthenticator(ORIGIN);
    const options = (await client.post('/api/account/passkeys/options')).json();
    const added = await client.post('/api/account/passkeys', {
      name: 'Laptop',
      response: authenticator.register(options),
    });
    const { id } = added.json().passkey;
    await ageSessions(t, user.id, 16);
    const refused = await client.post(`/api/account/passkeys/${id}/remove`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/sign in again/);
    expect((await client.get('/api/account/sign-in-security')).json().passkeys).toHaveLength(1);
    const { client: fresh } = await signIn(user);
    expect((await fresh.post(`/api/account/passkeys/${id}/remove`)).statusCode).toBe(200);
    expect((await fresh.get('/api/account/sign-in-security')).json().passkeys).toEqual([]);
  });
});
