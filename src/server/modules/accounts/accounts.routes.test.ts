import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, grantKits } from '../../../../tests/factories/users.ts';
import { createClient, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { hashSessionToken } from '../../http/session.ts';
import { COMMON_PASSWORD_COUNT, hashingStats } from './passwords.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test' });
});
afterAll(() => t.close());

const linkIn = (text: string) => /(http:\/\/shop\.test\/[^\s]+)/.exec(text)?.[1];
const lastMailTo = (email: string) => [...t.mails].reverse().find((m) => m.to === email);
const queryOf = (link: string) => new URL(link).search;
let n = 0;
const uniqueEmail = () => `user${++n}-${Date.now()}@example.com`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('register, verify, sign in', () => {
  it('registers, mails a single-use link that verifies and signs in, then signs in with the password', async () => {
    const browser = await createClient(t.app);
    const email = uniqueEmail();
    const res = await browser.post('/api/register', { name: 'Grace', email, password: 'cobol-compiler-1959' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/check your email/i);
    expect(await t.deliverMail()).toBe(1);
    const mail = lastMailTo(email)!;
    expect(mail.subject).toMatch(/activate/i);
    expect(mail.html).toContain('Activate my account');
    const link = linkIn(mail.text)!;
    expect(link).toMatch(/^http:\/\/shop\.test\/email\/verify\?token=[\w-]+&email=/);

    // Not verified yet: sign-in says so (and does not mail again within the minute).
    const early = await browser.post('/api/login', { email, password: 'cobol-compiler-1959', remember: false });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toMatch(/not verified/i);
    expect(await t.deliverMail()).toBe(0);

    const verified = await browser.post(`/email/verify${queryOf(link)}`);
    expect(verified.json()).toEqual({
      user: { id: expect.any(Number), name: 'Grace' },
      data: { result: 'success', message: expect.any(String) },
    });
    expect(await browser.user()).toEqual({ id: verified.json().user.id, name: 'Grace' });

    const again = await (await createClient(t.app)).post(`/email/verify${queryOf(link)}`);
    expect(again.json()).toEqual({
      user: {},
      data: { result: 'failed', message: expect.stringMatching(/invalid|used|expired/) },
    });

    const other = await createClient(t.app);
    const login = await other.post('/api/login', {
      email: email.toUpperCase(),
      password: 'cobol-compiler-1959',
      remember: false,
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({
      user: { id: verified.json().user.id, name: 'Grace' },
      message: 'Login Successfull',
    });
  });

  it('verifies a link opened while signed in to another account without switching accounts', async () => {
    // The attacker signs up with an address of their own and sends the victim the activation link.
    const attacker = await createClient(t.app);
    const attackerEmail = uniqueEmail();
    await attacker.post('/api/register', { name: 'Mallory', email: attackerEmail, password: 'evil-plans-secret-99' });
    await t.deliverMail();
    const link = linkIn(lastMailTo(attackerEmail)!.text)!;
    const { client: victim, user } = await signedInClient(t.app, t.pool, { name: 'Victim' });
    const session = victim.jar.get('kitshop_session');

    const res = await victim.post(`/email/verify${queryOf(link)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {},
      data: {
        result: 'success',
        message: `${attackerEmail} is now verified. You are still signed in to your own account: to use the verified one, sign out and sign in with that address.`,
      },
    });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(victim.jar.get('kitshop_session')).toBe(session);
    expect(await victim.user()).toEqual({ id: user.id, name: 'Victim' });
    const { rows } = await t.pool.query(
      'SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1',
      [attackerEmail],
    );
    expect(rows).toEqual([{ verified: true }]);
    // The verified account's owner signs in with the password as usual.
    const owner = await createClient(t.app);
    expect(
      (await owner.post('/api/login', { email: attackerEmail, password: 'evil-plans-secret-99' })).statusCode,
    ).toBe(200);
  });

  it('sends a fresh activation link to an unverified account at most once a minute', async () => {
    const user = await createUser(t.pool, { verified: false });
    const browser = await createClient(t.app);
    const first = await browser.post('/api/login', { email: user.email, password: user.password });
    expect(first.statusCode).toBe(403);
    expect(await t.deliverMail()).toBe(1);
    expect((await browser.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(403);
    expect(await t.deliverMail()).toBe(0);
    await t.pool.query("UPDATE email_tokens SET created_at = now() - interval '2 minutes' WHERE user_id = $1", [
      user.id,
    ]);
    await browser.post('/api/login', { email: user.email, password: user.password });
    expect(await t.deliverMail()).toBe(1);
  });

  it('refuses an expired activation link', async () => {
    const browser = await createClient(t.app);
    const email = uniqueEmail();
    await browser.post('/api/register', { name: 'Ken', email, password: 'unix-time-epoch-1970' });
    await t.deliverMail();
    await t.pool.query("UPDATE email_tokens SET expires_at = now() - interval '1 second'");
    const res = await browser.post(`/email/verify${queryOf(linkIn(lastMailTo(email)!.text)!)}`);
    expect(res.json().data.result).toBe('failed');
    expect(await browser.user()).toEqual({});
  });

  it('answers a sign-up with a registered address exactly as a new one, and mails the owner instead', async () => {
    const owner = await createUser(t.pool, { name: 'Owner' });
    const browser = await createClient(t.app, { ip: '10.0.2.1' });
    const fresh = await browser.post('/api/register', {
      name: 'X',
      email: uniqueEmail(),
      password: 'another-long-secret',
    });
    const taken = await browser.post('/api/register', {
      name: 'X',
      email: owner.email.toUpperCase(),
      password: 'another-long-secret',
    });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.statusCode).toBe(200);
    expect(taken.body).toBe(fresh.body);
    expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);

    expect(await t.deliverMail()).toBe(2);
    const mail = lastMailTo(owner.email)!;
    expect(mail.subject).toBe('Someone tried to sign up with your Kitshop address');
    expect(mail.text).toContain('http://shop.test/login');
    expect(mail.text).toContain('http://shop.test/forgot-password');
    expect(mail.html).toContain('href="http://shop.test/forgot-password"');
    const { rows } = await t.pool.query('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [
      owner.email,
    ]);
    expect(rows[0].n).toBe(1);
    // The account is untouched: its own password still signs in, the new one does not.
    const other = await createClient(t.app);
    expect((await other.post('/api/login', { email: owner.email, password: 'another-long-secret' })).statusCode).toBe(
      422,
    );
    expect((await other.post('/api/login', { email: owner.email, password: owner.password })).statusCode).toBe(200);
  });

  it('takes as long to answer a sign-up with a registered address as with a new one', async () => {
    // Old code answered a registered address before hashing the password: 10x faster.
    const owners = [];
    for (let i = 0; i < 7; i++) owners.push(await createUser(t.pool));
    const browser = await createClient(t.app, { ip: '10.0.2.2' });
    const statuses: number[] = [];
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await browser.post('/api/register', { name: 'T', email, password: 'timing-secret-123' });
      statuses.push(res.statusCode);
      return performance.now() - started;
    };
    const fresh: number[] = [];
    const taken: number[] = [];
    for (const owner of owners) {
      fresh.push(await timed(uniqueEmail()));
      taken.push(await timed(owner.email));
    }
    expect(median(taken)).toBeGreaterThan(median(fresh) * 0.5);
    expect(median(fresh)).toBeGreaterThan(median(taken) * 0.5);
    expect(new Set(statuses)).toEqual(new Set([200]));
    await t.deliverMail();
  });

  it.each([
    [{ email: 'a@example.com', password: 'long-enough-pass' }, /^name: /],
    [{ name: '', email: 'a@example.com', password: 'long-enough-pass' }, /^name: Name is required/],
    [{ name: 'A', password: 'long-enough-pass' }, /^email: /],
    [{ name: 'A', email: 'not-an-email', password: 'long-enough-pass' }, /^email: Enter a valid email/],
    [{ name: 'A', email: 'a@example.com' }, /^password: /],
    [{ name: 'A', email: 'a@example.com', password: 'short' }, /^password: Password must be at least 8/],
    [{ name: 'A', email: 'a@example.com', password: 'x'.repeat(129) }, /^password: Password must be at most 128/],
    [{ name: 'A', email: 'a@example.com', password: 'iloveyou' }, /^password: This password is one of the most common/],
    [{ name: 'A'.repeat(101), email: 'a@example.com', password: 'long-enough-pass' }, /^name: Name is too long/],
    [{ name: 7, email: 'a@example.com', password: 'long-enough-pass' }, /^name: /],
  ])('answers bad registration input %o with 422 naming the field', async (body, message) => {
    const res = await (await createClient(t.app)).post('/api/register', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(message);
  });

  it('ships a list of at least 10,000 common passwords', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(9_900); // the list's 10,000 lines, minus duplicates after lower-casing
  });
});

describe('sign-in rules', () => {
  it('answers a wrong password or an unknown e-mail alike', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app, { ip: '10.0.0.1' });
    const wrong = await browser.post('/api/login', { email: user.email, password: 'not-the-password' });
    const unknown = await browser.post('/api/login', { email: 'nobody@example.com', password: 'not-the-password' });
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('throttles 5 failed sign-ins a minute per e-mail and IP with a 429 that says when to try again', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app, { ip: '10.0.0.2' });
    for (let i = 0; i < 5; i++) {
      expect((await browser.post('/api/login', { email: user.email, password: 'wrong-password' })).statusCode).toBe(
        422,
      );
    }
    const blocked = await browser.post('/api/login', { email: user.email, password: user.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/try again in \d+ seconds?/);
    // Another address from the same IP, and the same address from another IP, still get through.
    expect(
      (
        await (
          await createClient(t.app, { ip: '10.0.0.3' })
        ).post('/api/login', { email: user.email, password: user.password })
      ).statusCode,
    ).toBe(200);
    await t.pool.query("UPDATE rate_limits SET reset_at = now() - interval '1 second'");
    expect((await browser.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('rotates the session id at every sign-in and ends the old one', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app);
    await browser.post('/api/login', { email: user.email, password: user.password });
    const first = browser.jar.get('kitshop_session')!;
    await browser.post('/api/login', { email: user.email, password: user.password });
    const second = browser.jar.get('kitshop_session')!;
    expect(second).not.toBe(first);
    expect(second.length).toBeGreaterThanOrEqual(43); // 256 bits
    const stale = await t.app.inject({ method: 'GET', url: '/', cookies: { kitshop_session: first } });
    expect(stale.body).toContain('"user":{}');
    const { rows } = await t.pool.query('SELECT token_hash FROM sessions WHERE user_id = $1', [user.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toBe(second); // stored hashed
  });

  it('keeps a remembered session 30 days; otherwise it ends after 2 idle hours', async () => {
    const user = await createUser(t.pool);
    const remembered = await createClient(t.app);
    const res = await remembered.post('/api/login', { email: user.email, password: user.password, remember: true });
    const cookie = res.cookies.find((c) => c.name === 'kitshop_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', maxAge: 30 * 86_400 });
    const plain = await createClient(t.app);
    const res2 = await plain.post('/api/login', { email: user.email, password: user.password, remember: false });
    expect(res2.cookies.find((c) => c.name === 'kitshop_session')!.maxAge).toBeUndefined();

    await t.pool.query("UPDATE sessions SET last_seen_at = now() - interval '3 hours' WHERE user_id = $1", [user.id]);
    expect(await remembered.user()).toEqual({ id: user.id, name: user.name });
    expect(await plain.user()).toEqual({});
  });

  it('signs out on GET /api/exit, which needs the CSRF token', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app);
    await browser.post('/api/login', { email: user.email, password: user.password });
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/exit',
      cookies: { kitshop_session: browser.jar.get('kitshop_session')! },
    });
    expect(forged.statusCode).toBe(419);
    const res = await browser.get('/api/exit');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await browser.user()).toEqual({});
    expect(
      (await t.pool.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [user.id])).rows[0].n,
    ).toBe(0);
  });
});

describe('sign-in throttle under parallel and spread attempts', () => {
  const statusesOf = (answers: { statusCode: number }[]) => answers.map((a) => a.statusCode);

  it('counts 8 parallel attempts, the right password among 7 wrong, before checking any: at most 5 wrong ones are checked', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app, { ip: '10.0.2.1' });
    const verifiedBefore = hashingStats.verified;
    const passwords = [...Array.from({ length: 7 }, (_, i) => `wrong-guess-${i}`), user.password];
    const statuses = statusesOf(
      await Promise.all(passwords.map((password) => browser.post('/api/login', { email: user.email, password }))),
    );
    const checked = statuses.filter((s) => s !== 429).length;
    expect(statuses.filter((s) => s === 422).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.every((s) => [200, 422, 429].includes(s))).toBe(true);
    // Every answer that was not refused checked a password, and no refused one did.
    expect(hashingStats.verified - verifiedBefore).toBe(checked);
  });

  it('checks at most 5 passwords of 200 parallel attempts from one address', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app, { ip: '10.0.2.2' });
    const verifiedBefore = hashingStats.verified;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => browser.post('/api/login', { email: user.email, password: `guess-${i}` })),
    );
    expect(hashingStats.verified - verifiedBefore).toBe(5);
    expect(statusesOf(answers).filter((s) => s === 422)).toHaveLength(5);
    expect(statusesOf(answers).filter((s) => s === 429)).toHaveLength(195);
    expect(answers.find((a) => a.statusCode === 429)!.json().message).toMatch(
      /^Too many failed sign-in attempts\. Please try again in \d+ (seconds?|minutes)\.$/,
    );
  });

  it('counts the addresses of one IPv6 /64 as one', async () => {
    const user = await createUser(t.pool);
    for (let i = 1; i <= 5; i++) {
      const browser = await createClient(t.app, { ip: `2001:db8:1:2::${i}` });
      expect((await browser.post('/api/login', { email: user.email, password: 'wrong-password' })).statusCode).toBe(
        422,
      );
    }
    const sameNetwork = await createClient(t.app, { ip: '2001:db8:1:2:ffff:ffff:ffff:fffe' });
    expect((await sameNetwork.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(429);
    const otherNetwork = await createClient(t.app, { ip: '2001:db8:1:3::1' });
    expect((await otherNetwork.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(
      200,
    );
  });

  /** 20 failed sign-ins for one address, each from an address of its own. */
  async function failFromManyAddresses(email: string, network: number) {
    for (let i = 1; i <= 20; i++) {
      const browser = await createClient(t.app, { ip: `10.${network}.${i}.1` });
      expect((await browser.post('/api/login', { email, password: `wrong-guess-${i}` })).statusCode).toBe(422);
    }
  }

  it('pauses password sign-in for an account after 20 failures from many addresses and mails its owner a link that lifts it', async () => {
    const user = await createUser(t.pool);
    await t.deliverMail();
    await failFromManyAddresses(user.email, 31);
    // The right password from yet another address: refused, the pause begins, the owner is mailed once.
    const paused = await (await createClient(t.app, { ip: '10.32.0.1' })).post('/api/login', {
      email: user.email,
      password: user.password,
    });
    expect(paused.statusCode).toBe(429);
    expect(paused.json()).toEqual({ message: 'Too many failed sign-in attempts. Please try again in 15 minutes.' });
    await (await createClient(t.app, { ip: '10.32.0.2' })).post('/api/login', {
      email: user.email,
      password: user.password,
    });
    expect(await t.deliverMail()).toBe(1);
    const mail = lastMailTo(user.email)!;
    expect(mail.subject).toBe('Sign-in to your Kitshop account is paused');
    expect(mail.text).toMatch(/paused for 15 minutes/);
    const link = linkIn(mail.text)!;
    expect(link).toMatch(/^http:\/\/shop\.test\/reset-password\?token=/);

    const url = new URL(link);
    const owner = await createClient(t.app, { ip: '10.32.0.3' });
    const reset = await owner.post('/api/reset-password', {
      token: url.searchParams.get('token'),
      email: url.searchParams.get('email'),
      password: 'a-new-password-after-pause',
      password_confirmation: 'a-new-password-after-pause',
    });
    expect(reset.statusCode).toBe(200);
    expect(
      (await owner.post('/api/login', { email: user.email, password: 'a-new-password-after-pause' })).statusCode,
    ).toBe(200);
  });

  it('ends the pause by itself when its window ends, and pauses an unknown address alike without mail', async () => {
    const user = await createUser(t.pool);
    await t.deliverMail();
    await failFromManyAddresses(user.email, 33);
    const browser = await createClient(t.app, { ip: '10.34.0.1' });
    expect((await browser.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(429);
    await t.pool.query("UPDATE rate_limits SET reset_at = now() - interval '1 second' WHERE key = $1", [
      `signin:account:${user.email}`,
    ]);
    expect((await browser.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);

    const unknown = uniqueEmail();
    await failFromManyAddresses(unknown, 35);
    const refused = await browser.post('/api/login', { email: unknown, password: 'any-password-at-all' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: 'Too many failed sign-in attempts. Please try again in 15 minutes.' });
    // One mail: the pause of the known account; an unknown address has no owner to mail.
    expect(await t.deliverMail()).toBe(1);
    expect(t.mails.filter((m) => m.to === unknown)).toEqual([]);
  });
});

describe('forgot and reset password', () => {
  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app);
    const known = await browser.post('/api/forgot-password', { email: user.email });
    const unknown = await browser.post('/api/forgot-password', { email: 'nobody-here@example.com' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: 'A reset link has been sent.' });
    expect(unknown.json()).toEqual(known.json());
    expect(await t.deliverMail()).toBe(1);
    expect(lastMailTo(user.email)!.text).toContain('/reset-password?token=');
  });

  it('answers as fast for a known address as for an unknown one: the link and its mail are made beside the answer', async () => {
    // Make the work only a known address causes slow, so an answer that waits for it shows.
    await t.pool.query(`CREATE FUNCTION slow_token() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$`);
    await t.pool.query(
      'CREATE TRIGGER slow_token BEFORE INSERT ON email_tokens FOR EACH ROW EXECUTE FUNCTION slow_token()',
    );
    try {
      const browser = await createClient(t.app, { ip: '10.0.3.1' });
      const timed = async (email: string) => {
        const started = performance.now();
        const res = await browser.post('/api/forgot-password', { email });
        const elapsed = performance.now() - started;
        expect(res.json()).toEqual({ message: 'A reset link has been sent.' });
        await t.deliverMail(); // lets the work beside the answer finish before the next one
        return elapsed;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        const user = await createUser(t.pool);
        known.push(await timed(user.email));
        unknown.push(await timed(uniqueEmail()));
        expect(lastMailTo(user.email)!.subject).toMatch(/Reset your Kitshop password/);
      }
      expect(median(known)).toBeLessThan(median(unknown) + 150);
    } finally {
      await t.pool.query('DROP TRIGGER slow_token ON email_tokens');
      await t.pool.query('DROP FUNCTION slow_token');
    }
  });

  it('resets with the newest link only, once, and ends every session', async () => {
    const user = await createUser(t.pool);
    const signedIn = await createClient(t.app);
    await signedIn.post('/api/login', { email: user.email, password: user.password });
    const browser = await createClient(t.app);
    await browser.post('/api/forgot-password', { email: user.email });
    await t.deliverMail();
    const older = linkIn(lastMailTo(user.email)!.text)!;
    await browser.post('/api/forgot-password', { email: user.email });
    await t.deliverMail();
    const newer = linkIn(lastMailTo(user.email)!.text)!;
    const body = (link: string, password: string) => {
      const q = new URL(link).searchParams;
      return { token: q.get('token'), email: q.get('email'), password, password_confirmation: password };
    };
    expect((await browser.post('/api/reset-password', body(older, 'brand-new-secret-1'))).statusCode).toBe(422);
    const ok = await browser.post('/api/reset-password', body(newer, 'brand-new-secret-1'));
    expect(ok.json()).toEqual({ message: 'Password updated. You can now log in.' });
    expect((await browser.post('/api/reset-password', body(newer, 'brand-new-secret-2'))).statusCode).toBe(422);
    expect(await signedIn.user()).toEqual({});
    expect((await browser.post('/api/login', { email: user.email, password: 'brand-new-secret-1' })).statusCode).toBe(
      200,
    );
    expect(await t.deliverMail()).toBe(1); // the password-changed notice
    expect(lastMailTo(user.email)!.subject).toMatch(/password was changed/);
  });

  it('refuses an expired reset link and mismatched or common passwords', async () => {
    const user = await createUser(t.pool);
    const browser = await createClient(t.app);
    await browser.post('/api/forgot-password', { email: user.email });
    await t.deliverMail();
    const q = new URL(linkIn(lastMailTo(user.email)!.text)!).searchParams;
    const base = { token: q.get('token'), email: user.email };
    const mismatch = await browser.post('/api/reset-password', {
      ...base,
      password: 'long-enough-1',
      password_confirmation: 'long-enough-2',
    });
    expect(mismatch.json().message).toBe('password_confirmation: Passwords are not matching.');
    const common = await browser.post('/api/reset-password', {
      ...base,
      password: 'password1',
      password_confirmation: 'password1',
    });
    expect(common.json().message).toMatch(/most common passwords/);
    await t.pool.query("UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1", [
      user.id,
    ]);
    const expired = await browser.post('/api/reset-password', {
      ...base,
      password: 'long-enough-1',
      password_confirmation: 'long-enough-1',
    });
    expect(expired.statusCode).toBe(422);
  });
});

describe('change password', () => {
  it('needs a signed-in user, matching fields, and ends every other session', async () => {
    const user = await createUser(t.pool);
    expect(
      (
        await (
          await createClient(t.app)
        ).post('/api/changePassword', { password: 'x'.repeat(10), password_confirmation: 'x'.repeat(10) })
      ).statusCode,
    ).toBe(401);
    const here = await createClient(t.app);
    const elsewhere = await createClient(t.app);
    await here.post('/api/login', { email: user.email, password: user.password });
    await elsewhere.post('/api/login', { email: user.email, password: user.password });
    const mismatch = await here.post('/api/changePassword', {
      password: 'new-secret-123',
      password_confirmation: 'other',
    });
    expect(mismatch.statusCode).toBe(422);
    // The Profile tab's hint is the rule: at least 8 characters, including a number and a symbol.
    for (const [weak, message] of [
      ['new-secret', 'password: Password must include a number.'],
      ['newsecret123', 'password: Password must include a symbol (such as - ! ? or #).'],
      ['n-1', 'password: Password must be at least 8 characters.'],
    ]) {
      const refused = await here.post('/api/changePassword', { password: weak, password_confirmation: weak });
      expect([refused.statusCode, refused.json()], weak).toEqual([422, { message }]);
    }
    const ok = await here.post('/api/changePassword', {
      password: 'new-secret-123',
      password_confirmation: 'new-secret-123',
    });
    expect(ok.json()).toEqual({ message: 'Password changed successfully.' });
    expect(await here.user()).toEqual({ id: user.id, name: user.name });
    expect(await elsewhere.user()).toEqual({});
    expect(
      (await (await createClient(t.app)).post('/api/login', { email: user.email, password: 'new-secret-123' }))
        .statusCode,
    ).toBe(200);
  });
});

describe('change password needs a recent sign-in', () => {
  it('refuses a session signed in more than 15 minutes ago and changes nothing; a fresh sign-in may', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const elsewhere = await createClient(t.app);
    await elsewhere.post('/api/login', { email: user.email, password: user.password });
    const session = client.jar.get('kitshop_session')!;
    await t.pool.query("UPDATE sessions SET created_at = now() - interval '16 minutes' WHERE token_hash = $1", [
      hashSessionToken(session),
    ]);
    await t.deliverMail();
    const stale = await client.post('/api/changePassword', {
      password: 'stolen-session-pw1',
      password_confirmation: 'stolen-session-pw1',
    });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({ message: 'For your security, please sign in again to change your password.' });
    expect(await t.deliverMail()).toBe(0);
    expect(await client.user()).toEqual({ id: user.id, name: user.name }); // still signed in
    expect(await elsewhere.user()).toEqual({ id: user.id, name: user.name });
    const fresh = await createClient(t.app);
    expect((await fresh.post('/api/login', { email: user.email, password: 'stolen-session-pw1' })).statusCode).toBe(
      422,
    );

    expect((await client.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);
    const ok = await client.post('/api/changePassword', {
      password: 'fresh-session-pw12',
      password_confirmation: 'fresh-session-pw12',
    });
    expect(ok.statusCode).toBe(200);
    expect(await elsewhere.user()).toEqual({});
  });
});

describe('purchases', () => {
  it('answers 401 signed out, the empty list, then the granted and not revoked kits', async () => {
    expect((await (await createClient(t.app)).post('/api/purchases')).statusCode).toBe(401);
    const user = await createUser(t.pool);
    const browser = await createClient(t.app);
    await browser.post('/api/login', { email: user.email, password: user.password });
    expect((await browser.post('/api/purchases')).json()).toEqual({ items: [] });
    const { rows: kits } = await t.pool.query('SELECT id, sef_id, title, spot FROM kits ORDER BY id');
    await grantKits(t.pool, user.id, [kits[0].id, kits[1].id]);
    await t.pool.query('UPDATE entitlements SET revoked_at = now() WHERE user_id = $1 AND kit_id = $2', [
      user.id,
      kits[1].id,
    ]);
    expect((await browser.post('/api/purchases')).json()).toEqual({
      items: [
        {
          ...kits[0],
          listed: true,
          documentation: true,
          version: '1.1.0',
          released_on: '2025-08-01',
          updated: false,
          // GitHub delivery is off here.
          repository: null,
        },
      ],
    });
  });
});

describe('limits and guards on the public forms', () => {
  it('limits sign-ups and reset requests per e-mail address', async () => {
    const browser = await createClient(t.app, { ip: '10.0.1.1' });
    const email = uniqueEmail();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push(
        (await browser.post('/api/register', { name: 'Rate', email, password: `limited-password-${i}` })).statusCode,
      );
    }
    expect(codes.slice(0, 5)).not.toContain(429);
    expect(codes[5]).toBe(429);
    const forgot: number[] = [];
    for (let i = 0; i < 6; i++) forgot.push((await browser.post('/api/forgot-password', { email })).statusCode);
    expect(forgot).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('limits reset attempts to 20 in 10 minutes per IP, with a 429 that says when to try again', async () => {
    const browser = await createClient(t.app, { ip: '10.0.1.2' });
    const attempt = () =>
      browser.post('/api/reset-password', {
        token: 'made-up-link',
        email: 'someone@example.com',
        password: 'reset-flood-password-1',
        password_confirmation: 'reset-flood-password-1',
      });
    for (let i = 0; i < 20; i++) expect((await attempt()).statusCode).toBe(422);
    const blocked = await attempt();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: expect.stringMatching(/^Too many password reset attempts\. Please try again in \d+ minutes?\.$/),
    });
    // Another address is counted apart.
    expect(
      (
        await (
          await createClient(t.app, { ip: '10.0.1.3' })
        ).post('/api/reset-password', {
          token: 'made-up-link',
          email: 'someone@example.com',
          password: 'reset-flood-password-1',
          password_confirmation: 'reset-flood-password-1',
        })
      ).statusCode,
    ).toBe(422);
  });

  it('keeps the counters of 600 failed sign-ins with new e-mails from one address to at most 101 rows', async () => {
    const browser = await createClient(t.app, { ip: '10.0.3.1' });
    const rowsBefore = (await t.pool.query('SELECT count(*)::int AS n FROM rate_limits')).rows[0].n as number;
    const statuses: number[] = [];
    for (let i = 0; i < 600; i++) {
      statuses.push(
        (await browser.post('/api/login', { email: `new-${i}-${n}@example.com`, password: 'a-guess' })).statusCode,
      );
    }
    // 50 failures a 10-minute window per address are checked; the rest are refused before any
    // counter of their own is made (the address's own, its e-mail's and the account's: 1 + 2 × 50).
    expect(statuses.filter((s) => s === 422)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(550);
    const rowsAfter = (await t.pool.query('SELECT count(*)::int AS n FROM rate_limits')).rows[0].n as number;
    expect(rowsAfter - rowsBefore).toBeLessThanOrEqual(101);
  });

  it('rejects every account call without the CSRF token', async () => {
    for (const url of [
      '/api/login',
      '/api/register',
      '/api/forgot-password',
      '/api/reset-password',
      '/api/changePassword',
      '/api/purchases',
      '/email/verify',
    ]) {
      const res = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBe(419);
    }
  });

  it.each([
    ['/api/login', { email: 'x@example.com' }, /^password: /],
    ['/api/login', { email: 'nope', password: 'whatever-long' }, /^email: /],
    ['/api/login', { email: 'x@example.com', password: 'long-enough-1', remember: 'yes' }, /^remember: /],
    ['/api/forgot-password', {}, /^email: /],
    [
      '/api/reset-password',
      { email: 'x@example.com', password: 'long-enough-1', password_confirmation: 'long-enough-1' },
      /^token: /,
    ],
    [
      '/api/reset-password',
      { token: 't', email: 'x@example.com', password: 'short', password_confirmation: 'short' },
      /^password: /,
    ],
  ])('answers bad input to %s with 422 naming the field', async (url, body, message) => {
    const res = await (await createClient(t.app)).post(url, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(message);
  });
});
