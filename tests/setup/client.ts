import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type pg from 'pg';
import { signPaddleBody } from '../../src/server/integrations/payments/signature.ts';
import { createUser, grantKits, type UserOverrides } from '../factories/users.ts';

/**
 * A browser-like client for app.inject(): keeps cookies, and sends the CSRF token the page shell
 * handed out, the way the web app does.
 */
export async function createClient(app: FastifyInstance, options: { ip?: string; base?: string } = {}) {
  const jar = new Map<string, string>();
  const base = options.base ?? '';
  const remember = (res: LightMyRequestResponse) => {
    for (const c of res.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now()) || c.maxAge === 0) jar.delete(c.name);
      else jar.set(c.name, c.value);
    }
    return res;
  };
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let csrf = '';
  const page = async (url = '/') => {
    const res = remember(
      await app.inject({
        method: 'GET',
        url: `${base}${url}`,
        headers: { cookie: cookieHeader() },
        remoteAddress: options.ip,
      }),
    );
    const data = /<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(res.body);
    if (data) csrf = JSON.parse(data[1]!).csrf;
    return { res, data: data ? JSON.parse(data[1]!) : undefined };
  };
  await page('/');
  return {
    jar,
    page,
    get csrf() {
      return csrf;
    },
    async post(url: string, body?: unknown, headers: Record<string, string> = {}) {
      return remember(
        await app.inject({
          method: 'POST',
          url: `${base}${url}`,
          headers: {
            cookie: cookieHeader(),
            'x-csrf-token': csrf,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          payload: body === undefined ? undefined : JSON.stringify(body),
          remoteAddress: options.ip,
        }),
      );
    },
    async get(url: string, headers: Record<string, string> = {}) {
      return remember(
        await app.inject({
          method: 'GET',
          url: `${base}${url}`,
          headers: { cookie: cookieHeader(), 'x-csrf-token': csrf, ...headers },
          remoteAddress: options.ip,
        }),
      );
    },
    /** The signed-in user the page shell would embed. */
    async user() {
      return (await page('/')).data?.user;
    },
  };
}
export type Client = Awaited<ReturnType<typeof createClient>>;

/** A verified user (see createUser) signed in on a fresh client. */
export async function signedInClient(app: FastifyInstance, pool: pg.Pool, overrides: UserOverrides = {}) {
  const user = await createUser(pool, overrides);
  const client = await createClient(app);
  const res = await client.post('/api/login', { email: user.email, password: user.password });
  if (res.statusCode !== 200) throw new Error(`sign-in answered ${res.statusCode}: ${res.body}`);
  return { client, user };
}

/** A signed-in client whose user owns one kit of the imported catalog (by slug). */
export async function signedInOwner(app: FastifyInstance, pool: pg.Pool, sefId: string) {
  const { rows } = await pool.query<{ id: number; sef_id: string }>('SELECT id, sef_id FROM kits WHERE sef_id = $1', [
    sefId,
  ]);
  const kit = rows[0]!;
  const { client, user } = await signedInClient(app, pool, { name: 'Owner' });
  await grantKits(pool, user.id, [kit.id]);
  return { client, user, kit };
}

/** Opens the sandbox frame for an order and presses Pay with the card that pays. */
export async function sandboxPay(browser: Client, orderId: string) {
  const page = await browser.get(`/sandbox/checkout?order_id=${orderId}`);
  const csrf = JSON.parse(/id="sandbox-data">(.*?)<\/script>/.exec(page.body)![1]!).csrf;
  return browser.post(
    '/sandbox/checkout/pay',
    { order_id: orderId, card_number: '4242 4242 4242 4242' },
    { 'x-csrf-token': csrf },
  );
}

/** Posts a payment event to the webhook signed with this secret, as Paddle (or the sandbox) delivers it. */
export function deliverWebhook(app: FastifyInstance, event: object, secret: string) {
  const body = JSON.stringify(event);
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/paddle',
    headers: { 'content-type': 'application/json', 'paddle-signature': signPaddleBody(body, secret) },
    payload: body,
  });
}
