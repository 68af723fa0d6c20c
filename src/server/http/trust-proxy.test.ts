import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../../../tests/factories/users.ts';
import { createClient } from '../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(() => t.close());

/** Six wrong passwords for one account from `ip`, each claiming to be from the next `forwarded` address. */
async function failures(ip: string, forwarded: (i: number) => string) {
  const user = await createUser(t.pool);
  const client = await createClient(t.app, { ip });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await client.post(
      '/api/login',
      { email: user.email, password: 'wrong-password' },
      { 'x-forwarded-for': forwarded(i) },
    );
    statuses.push(res.statusCode);
  }
  return { statuses, user, client };
}

it("counts limits per client address from a trusted proxy's X-Forwarded-For", async () => {
  const { statuses, user, client } = await failures('127.0.0.1', () => '203.0.113.1');
  expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
  // Another client behind the same proxy is counted on its own.
  const other = await client.post(
    '/api/login',
    { email: user.email, password: 'wrong-password' },
    { 'x-forwarded-for': '203.0.113.2' },
  );
  expect(other.statusCode).toBe(422);
});

it('ignores X-Forwarded-For from anyone but the trusted proxy', async () => {
  const { statuses } = await failures('198.51.100.9', (i) => `203.0.113.${50 + i}`);
  expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
});
