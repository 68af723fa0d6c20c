import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSession, createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  // A state-changing route, and a safe-method route that opts in (as GET /api/exit will).
  t = await createTestApp(
    {},
    {
      routes: (app) => {
        app.post('/api/csrf-probe', async () => ({ ok: true }));
        app.get('/api/csrf-probe-get', { config: { csrf: true } }, async () => ({ ok: true }));
      },
    },
  );
});
afterAll(() => t.close());

describe('CSRF', () => {
  it('rejects a state-changing call without the token with 419 and a message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/csrf-probe', payload: {} });
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({ message: expect.stringMatching(/reload the page/i) });
  });

  it('rejects a wrong token and a token without its cookie', async () => {
    const { csrf, cookie } = await browserSession(t.app);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/csrf-probe',
      headers: { 'x-csrf-token': `${csrf}x`, cookie },
    });
    expect(wrong.statusCode).toBe(419);
    const noCookie = await t.app.inject({ method: 'POST', url: '/api/csrf-probe', headers: { 'x-csrf-token': csrf } });
    expect(noCookie.statusCode).toBe(419);
  });

  it('lets the right token through', async () => {
    const { csrf, cookie } = await browserSession(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/csrf-probe',
      headers: { 'x-csrf-token': csrf, cookie },
    });
    expect(res.statusCode).toBe(200);
  });

  it('guards safe-method routes that opt in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/csrf-probe-get' })).statusCode).toBe(419);
    const { csrf, cookie } = await browserSession(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/csrf-probe-get',
      headers: { 'x-csrf-token': csrf, cookie },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers a POST to an unknown path with 404, not 419', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/unknown' })).statusCode).toBe(404);
  });

  it('does not require the token for the read-only catalog calls', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/products' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/product/alpha-kit' })).statusCode).toBe(200);
  });
});
