import Tokens from '@fastify/csrf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, signedInClient } from '../../../tests/setup/client.ts';
import { browserSession, createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { csrfIssuer, csrfToken, randomPool } from './security.ts';

let t: TestApp;
beforeAll(async () => {
  // A state-changing route, and a safe-method route that opts in (as GET /api/exit will).
  t = await createTestApp(
    {},
    {
      routes: (app) => {
        app.post('/api/csrf-probe', async () => ({ ok: true }));
        app.get('/api/csrf-probe-get', { config: { csrf: true } }, async () => ({ ok: true }));
        app.route({ method: ['GET', 'DELETE'], url: '/api/csrf-probe-both', handler: async () => ({ ok: true }) });
        // An answer with a cookie of its own besides a first visit's CSRF secret.
        app.get('/api/cookie-probe', async (_request, reply) => {
          reply.setCookie('other', 'one', { path: '/' });
          return { csrf: reply.csrfToken() };
        });
      },
    },
  );
});
afterAll(() => t.close());

const probe = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers });

describe('CSRF', () => {
  it('rejects a state-changing call without the token with 419 and a message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/csrf-probe', payload: {} });
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({ message: expect.stringMatching(/reload the page/i) });
  });

  it('rejects a wrong token and a token without its cookie', async () => {
    const { csrf, cookie } = await browserSession(t.app);
    expect((await probe('POST', '/api/csrf-probe', { 'x-csrf-token': `${csrf}x`, cookie })).statusCode).toBe(419);
    expect((await probe('POST', '/api/csrf-probe', { 'x-csrf-token': csrf })).statusCode).toBe(419);
  });

  it('lets the right token through', async () => {
    const { csrf, cookie } = await browserSession(t.app);
    expect((await probe('POST', '/api/csrf-probe', { 'x-csrf-token': csrf, cookie })).statusCode).toBe(200);
  });

  it('guards safe-method routes that opt in', async () => {
    expect((await probe('GET', '/api/csrf-probe-get')).statusCode).toBe(419);
    const { csrf, cookie } = await browserSession(t.app);
    expect((await probe('GET', '/api/csrf-probe-get', { 'x-csrf-token': csrf, cookie })).statusCode).toBe(200);
  });

  it('checks the state-changing method of a route that also answers a safe one, and only that one', async () => {
    expect((await probe('GET', '/api/csrf-probe-both')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/csrf-probe-both' })).statusCode).toBe(419);
    const { csrf, cookie } = await browserSession(t.app);
    const headers = { 'x-csrf-token': csrf, cookie };
    expect((await t.app.inject({ method: 'DELETE', url: '/api/csrf-probe-both', headers })).statusCode).toBe(200);
  });

  it('answers an unknown path 404, not a CSRF refusal', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/no-such-call', payload: {} })).statusCode).toBe(404);
  });

  it('gives a first visit one new secret cookie, and a returning visitor a new token for the secret it has', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const secrets = first.cookies.filter((c) => c.name.includes('csrf'));
    expect(secrets).toHaveLength(1);
    expect(secrets[0]!.value).toMatch(/^[\w-]{24}$/);
    const { csrf, cookie } = await browserSession(t.app);
    const again = await t.app.inject({ method: 'GET', url: '/about', headers: { cookie } });
    expect(again.cookies.filter((c) => c.name.includes('csrf'))).toEqual([]);
    const token = JSON.parse(/id="initial-data">(.*?)<\/script>/.exec(again.body)![1]!).csrf;
    expect(token).not.toBe(csrf);
    expect((await probe('POST', '/api/csrf-probe', { 'x-csrf-token': token, cookie })).statusCode).toBe(200);
  });

  it("sets a first visit's secret as the cookie plugin would, beside the answer's other cookies", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cookie-probe' });
    const setCookie = res.headers['set-cookie'] as string[];
    expect(setCookie).toHaveLength(2);
    expect(setCookie).toContain(t.app.serializeCookie('other', 'one', { path: '/', sameSite: 'lax' }));
    const { cookieName, cookieOptions } = csrfIssuer(t.config);
    const secret = res.cookies.find((c) => c.name === cookieName)!.value;
    expect(setCookie).toContain(t.app.serializeCookie(cookieName, secret, cookieOptions));
    expect(setCookie.find((c) => c.startsWith(`${cookieName}=`))).toMatch(
      /; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const cookie = `${cookieName}=${secret}`;
    expect((await probe('POST', '/api/csrf-probe', { 'x-csrf-token': res.json().csrf, cookie })).statusCode).toBe(200);
  });

  it('cuts each secret from pooled random bytes once, and refills the pool when it is used up', () => {
    const next = randomPool(18, 4);
    const secrets = Array.from({ length: 12 }, next);
    expect(new Set(secrets).size).toBe(12);
    for (const secret of secrets) expect(Buffer.from(secret, 'base64url')).toHaveLength(18);
  });

  it('makes the tokens @fastify/csrf makes: its own verify accepts them, for this secret only', () => {
    const tokens = Tokens({ userInfo: false });
    const secrets = randomPool(18);
    for (let i = 0; i < 300; i++) {
      const secret = secrets();
      const token = csrfToken(tokens, secret);
      expect(token).toMatch(/^[A-Za-z0-9]{8}-[\w-]{43}$/);
      expect(tokens.verify(secret, token), `${secret} ${token}`).toBe(true);
      expect(tokens.verify(secrets(), token)).toBe(false);
    }
    // A secret a client made up, outside base64url, is hashed by the library itself (as ASCII).
    for (const odd of ['a b', 'sécret', 'x/y+z=', '\u{1F600}']) {
      expect(tokens.verify(odd, csrfToken(tokens, odd))).toBe(true);
    }
  });

  it('answers a POST to an unknown path with 404, not 419', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/unknown' })).statusCode).toBe(404);
  });

  it('does not require the token for the read-only catalog calls', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/products' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/product/alpha-kit' })).statusCode).toBe(200);
  });
});

describe('Cache-Control', () => {
  it('marks every answer that depends on the session or carries a user no-store', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    const fresh = await createClient(t.app);
    const answers = {
      'the page shell (csrf and user)': (await client.page('/')).res,
      'sign-in': await fresh.post('/api/login', { email: user.email, password: user.password }),
      'a failed sign-in': await fresh.post('/api/login', { email: user.email, password: 'not-the-password' }),
      cart: await client.post('/api/cart', { products: [] }),
      purchases: await client.post('/api/purchases'),
      'an item signed out': await (await createClient(t.app)).post('/api/item/alpha-kit'),
      'e-mail verification': await client.post('/email/verify?token=x&email=x@example.com'),
      'password change': await client.post('/api/changePassword', { password: '', password_confirmation: '' }),
      'the CSRF refusal': await t.app.inject({ method: 'POST', url: '/api/csrf-probe' }),
      'an unknown API path': await t.app.inject({ method: 'POST', url: '/api/unknown' }),
      'sign-out': await client.get('/api/exit'),
    };
    for (const [name, res] of Object.entries(answers)) expect(res.headers['cache-control'], name).toBe('no-store');
  });

  it('leaves public answers cacheable', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/alpha-kit' })).headers['cache-control']).toBe(
      'public, max-age=60',
    );
    expect((await t.app.inject({ method: 'GET', url: '/robots.txt' })).headers['cache-control']).toMatch(/^public/);
  });
});
