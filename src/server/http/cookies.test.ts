import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../tests/factories/users.ts';
import { createClient } from '../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import type { GoogleSignIn } from '../integrations/oidc/google.ts';

/** Google's side is not needed here: only the state cookie the redirect sets and the callback reads. */
const google = {
  start: async () => ({ url: 'https://accounts.example/auth', state: 's', nonce: 'n', codeVerifier: 'v' }),
  finish: async () => {
    throw new Error('not this time');
  },
} as unknown as GoogleSignIn;

const setCookie = (res: LightMyRequestResponse, name: string) => {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));
  expect(header, `Set-Cookie ${name}`).toBeDefined();
  return header!;
};

describe.each([
  { base: '', suffix: '' },
  { base: '/shop', suffix: '_shop' },
])('cookies on https (BASE_PATH "$base")', ({ base, suffix }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: `https://shop.test${base}`, BASE_PATH: base || '/' }, { google });
  });
  afterAll(() => t.close());

  it('names the session and CSRF cookies __Host- (Secure, Path=/) and the session works on the next request', async () => {
    const user = await createUser(t.pool);
    const csrf = setCookie(await t.app.inject({ method: 'GET', url: `${base}/` }), `__Host-kitshop_csrf${suffix}`);
    expect(csrf).toMatch(/; Path=\/(;|$)/);
    expect(csrf).toContain('; Secure');
    expect(csrf).not.toMatch(/Domain=/i);

    const client = await createClient(t.app, { base });
    const login = await client.post('/api/login', { email: user.email, password: user.password });
    expect(login.statusCode).toBe(200);
    const session = setCookie(login, `__Host-kitshop_session${suffix}`);
    expect(session).toMatch(/; Path=\/(;|$)/);
    expect(session).toContain('; Secure');
    expect(session).toContain('; HttpOnly');
    expect([...client.jar.keys()].some((name) => name.startsWith('kitshop_'))).toBe(false);

    expect(await client.user()).toEqual({ id: user.id, name: user.name });
    expect((await client.post('/api/purchases')).statusCode).toBe(200);
    // Changing the password ends the other sessions, not this one.
    const changed = await client.post('/api/changePassword', {
      password: 'a-new-long-password-1',
      password_confirmation: 'a-new-long-password-1',
    });
    expect(changed.statusCode).toBe(200);
    expect(await client.user()).toEqual({ id: user.id, name: user.name });
    expect((await client.get('/api/exit')).statusCode).toBe(200);
    expect(await client.user()).toEqual({});
  });

  it('names the Google sign-in state cookie __Host- too, and the callback reads it back', async () => {
    const client = await createClient(t.app, { base });
    const start = await client.get('/google/redirect?returnPath=cart');
    const state = setCookie(start, `__Host-kitshop_oidc${suffix}`);
    expect(state).toMatch(/; Path=\/(;|$)/);
    expect(state).toContain('; Secure');
    // With the state found, the sign-in gets as far as Google (which fails here), not "expired".
    const back = await client.get('/google/callback?code=c&state=s');
    expect(back.headers.location).toBe(`${base}/login?google=failed`);
  });
});

describe('cookies on plain http', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://shop.test/shop', BASE_PATH: '/shop' });
  });
  afterAll(() => t.close());

  it('keep their plain names, without Secure, under the base path', async () => {
    const user = await createUser(t.pool);
    const client = await createClient(t.app, { base: '/shop' });
    const login = await client.post('/api/login', { email: user.email, password: user.password });
    const session = setCookie(login, 'kitshop_session');
    expect(session).toMatch(/; Path=\/shop(;|$)/);
    expect(session).not.toContain('Secure');
  });
});
