import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../tests/factories/users.ts';
import { createClient, signedInClient } from '../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

const initialData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(html)![1]!);

/**
 * The owner console's page shell: /admin exists for owners only, and the browser learns
 * that a user is an owner from the initial data and the sign-in answer (`owner: true`), never otherwise.
 */
describe('owner console shell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  });
  afterAll(() => t.close());

  it.each(['/admin', '/admin/', '/admin/orders', '/admin/orders/ord_x'])(
    'answers %s with the ordinary 404 to a visitor and to a customer',
    async (url) => {
      const visitor = await createClient(t.app);
      const signedOut = await visitor.get(url);
      const { client } = await signedInClient(t.app, t.pool);
      const customer = await client.get(url);
      const notFound = await client.get('/no-such-page');
      for (const res of [signedOut, customer]) {
        expect(res.statusCode).toBe(404);
        expect(res.body).toContain('<meta name="robots" content="noindex">');
        expect(res.body).not.toContain('Admin');
      }
      expect(customer.body.replace(/"csrf":"[^"]*"|"path":"[^"]*"/g, '')).toBe(
        notFound.body.replace(/"csrf":"[^"]*"|"path":"[^"]*"/g, ''),
      );
      expect(initialData(customer.body).user).not.toHaveProperty('owner');
    },
  );

  it('serves the console to an owner: 200, noindex, and owner: true in the initial data', async () => {
    const { client, user } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test', name: 'Boss' });
    for (const url of ['/admin', '/admin/customers/12']) {
      const res = await client.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Admin — Kitshop</title>');
      expect(res.body).toContain('<meta name="robots" content="noindex">');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(initialData(res.body).user).toEqual({ id: user.id, name: 'Boss', owner: true });
    }
    // The rest of the shop tells the browser too (the user menu's Admin item), and stays as it was.
    const home = await client.get('/');
    expect(home.statusCode).toBe(200);
    expect(initialData(home.body).user).toEqual({ id: user.id, name: 'Boss', owner: true });
  });

  it('an account with an owner address whose e-mail is not verified is no owner', async () => {
    await t.pool.query("DELETE FROM users WHERE lower(email) = 'boss@shop.test'");
    const { client, user } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test' });
    expect((await client.get('/admin')).statusCode).toBe(200);
    await t.pool.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [user.id]);
    const res = await client.get('/admin');
    expect(res.statusCode).toBe(404);
    expect(initialData(res.body).user).not.toHaveProperty('owner');
  });

  it('the sign-in answer says owner: true for an owner only', async () => {
    await t.pool.query("DELETE FROM users WHERE lower(email) = 'boss@shop.test'");
    const boss = await createUser(t.pool, { email: 'Boss@Shop.test', name: 'Boss' });
    const customer = await createUser(t.pool, { name: 'Carla' });
    const signIn = async (email: string, password: string) =>
      (await (await createClient(t.app)).post('/api/login', { email, password, remember: false })).json();
    expect((await signIn(boss.email, boss.password)).user).toEqual({ id: boss.id, name: 'Boss', owner: true });
    expect((await signIn(customer.email, customer.password)).user).toEqual({ id: customer.id, name: 'Carla' });
  });
});
