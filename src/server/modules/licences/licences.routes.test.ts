import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import { type Client, createClient, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { issueLicenceKeys, issueMissingLicenceKeys, licenceKeyBox } from './licences.service.ts';

let t: TestApp;
let owner: Client;
let kits: { id: number; sef_id: string; title: string }[];

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  kits = (await t.pool.query('SELECT id, sef_id, title FROM kits ORDER BY position')).rows;
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test', name: 'The Boss' }));
});
afterAll(() => t.close());

/** A buyer who paid for one kit through the sandbox, their order, and the key their item page shows. */
async function paidBuyer(kit = kits[0]!) {
  const { client, user } = await signedInClient(t.app, t.pool);
  const cart = (await client.post('/api/cart', { products: [kit.id], checkout: true })).json();
  expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
  const page = await client.post(`/api/licences/${kit.sef_id}`, {});
  expect(page.statusCode).toBe(200);
  return { client, user, kit, orderId: cart.order_id as string, key: page.json().key as string };
}

/** A machine's call: no cookie, no CSRF token, JSON unless told otherwise. */
function api(verb: string, body: unknown, options: { type?: string; ip?: string } = {}) {
  const type = options.type ?? 'application/json';
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/licenses/${verb}`,
    headers: { 'content-type': type, accept: 'application/json' },
    payload: typeof body === 'string' ? body : type.includes('json') ? JSON.stringify(body) : String(body),
    remoteAddress: options.ip ?? '203.0.113.7',
  });
}

describe('licence keys are issued with the licence', () => {
  it('at payment, in its transaction: the key row is there when the payment is, and the holder sees it', async () => {
    const kit = kits[0]!;
    const { client, user } = await signedInClient(t.app, t.pool);
    const cart = (await client.post('/api/cart', { products: [kit.id], checkout: true })).json();
    expect((await sandboxPay(client, cart.order_id)).statusCode).toBe(200);
    const atPayment = await t.pool.query('SELECT count(*)::int AS n FROM licence_keys WHERE user_id = $1', [user.id]);
    expect(atPayment.rows[0].n).toBe(1);
    const key = (await client.post(`/api/licences/${kit.sef_id}`, {})).json().key as string;
    const { rows } = await t.pool.query(
      'SELECT k.key_hash, k.key_sealed FROM licence_keys k JOIN entitlements e ON e.id = k.entitlement_id WHERE e.user_id = $1',
      [user.id],
    );
    expect(rows).toHaveLength(1);
    // Neither form in the database is the key.
    expect(JSON.stringify(rows[0])).not.toContain(key);
    expect(JSON.stringify(rows[0])).not.toContain(key.replace(/-/g, ''));
    expect(key).toMatch(/^([0-9A-Z]{4}-){7}[0-9A-Z]{4}$/);
    const validated = (await api('validate', { license_key: key })).json();
    expect(validated.meta).toEqual({ kit_sef_id: kit.sef_id, kit_title: kit.title, customer_email: user.email });
  });

  it('at an owner grant, and for entitlements from before keys (issued at start)', async () => {
    const { user } = await signedInClient(t.app, t.pool);
    expect((await owner.post(`/api/admin/customers/${user.id}/grant`, { kit_id: kits[1]!.id })).statusCode).toBe(200);
    const granted = await t.pool.query('SELECT count(*)::int AS n FROM licence_keys WHERE user_id = $1', [user.id]);
    expect(granted.rows[0].n).toBe(1);
    await grantKits(t.pool, user.id, [kits[0]!.id]);
    expect(await issueMissingLicenceKeys(t.db, licenceKeyBox('test-secret-test-secret-test-secret'), 1)).toBe(1);
    expect(await issueMissingLicenceKeys(t.db, licenceKeyBox('test-secret-test-secret-test-secret'))).toBe(0);
    const all = await t.pool.query('SELECT count(*)::int AS n FROM licence_keys WHERE user_id = $1', [user.id]);
    expect(all.rows[0].n).toBe(2);
  });

  it("keeps a kit's key when a tier is issued again: its limit raised, never lowered", async () => {
    const { client, user, kit, key } = await paidBuyer(kits[1]);
    const box = licenceKeyBox('test-secret-test-secret-test-secret');
    const issue = (activationLimit?: number) =>
      t.db.transaction((tx) => issueLicenceKeys(tx, box, [{ userId: user.id, kitId: kit.id, activationLimit }]));
    expect(await issue(7)).toBe(0);
    expect(await issue(2)).toBe(0);
    expect(await issue()).toBe(0);
    expect((await client.post(`/api/licences/${kit.sef_id}`, {})).json()).toMatchObject({ key, activation_limit: 7 });
    expect((await api('validate', { license_key: key })).json().license_key.activation_limit).toBe(7);
  });

  it('answers 404, not 500, when the kit goes while its first key is being issued', async () => {
    const { client, user } = await signedInClient(t.app, t.pool);
    await grantKits(t.pool, user.id, [kits[1]!.id]);
    // A revoke that commits between the item page's ownership check and the key's insert, as a
    // trigger: the entitlement is gone when the key row is checked against it.
    await t.pool.query(`
      CREATE FUNCTION revoke_meanwhile() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN DELETE FROM entitlements WHERE id = NEW.entitlement_id; RETURN NEW; END $$;
      CREATE TRIGGER revoke_meanwhile BEFORE INSERT ON licence_keys FOR EACH ROW
        WHEN (NEW.user_id = ${user.id}) EXECUTE FUNCTION revoke_meanwhile();`);
    try {
      const answer = await client.post(`/api/licences/${kits[1]!.sef_id}`, {});
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toBe('This kit has no licence key.');
    } finally {
      await t.pool.query('DROP TRIGGER revoke_meanwhile ON licence_keys; DROP FUNCTION revoke_meanwhile();');
    }
  });

  it('is shown only to its holder: 401 signed out, 403 for a kit not owned', async () => {
    const anonymous = await createClient(t.app);
    expect((await anonymous.post(`/api/licences/${kits[0]!.sef_id}`, {})).statusCode).toBe(401);
    const { client } = await signedInClient(t.app, t.pool);
    expect((await client.post(`/api/licences/${kits[0]!.sef_id}`, {})).statusCode).toBe(403);
  });
});

describe('the License API', () => {
  it('activates, validates and deactivates in Lemon Squeezy’s shapes, setting no cookie', async () => {
    const { key, kit, user, client } = await paidBuyer();
    const inactive = await api('validate', { license_key: key.toLowerCase() });
    expect(inactive.statusCode).toBe(200);
    expect(inactive.headers['set-cookie']).toBeUndefined();
    const meta = { kit_sef_id: kit.sef_id, kit_title: kit.title, customer_email: user.email };
    expect(inactive.json()).toEqual({
      valid: true,
      error: null,
      license_key: {
        status: 'inactive',
        key,
        activation_limit: 3,
        activation_usage: 0,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        expires_at: null,
      },
      instance: null,
      meta,
    });

    const activated = await api('activate', { license_key: key, instance_name: 'Work laptop' });
    expect(activated.statusCode).toBe(200);
    expect(activated.headers['set-cookie']).toBeUndefined();
    const body = activated.json();
    expect(body).toEqual({
      activated: true,
      error: null,
      license_key: { ...inactive.json().license_key, status: 'active', activation_usage: 1 },
      instance: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Work laptop', created_at: expect.any(String) },
      meta,
    });

    const withInstance = (await api('validate', { license_key: key, instance_id: body.instance.id })).json();
    expect(withInstance).toMatchObject({ valid: true, instance: body.instance, license_key: { status: 'active' } });
    const otherInstance = await api('validate', { license_key: key, instance_id: 'not-an-instance' });
    expect(otherInstance.statusCode).toBe(404);
    expect(otherInstance.json()).toMatchObject({ valid: false, error: 'instance_id not found.', instance: null });

    // The item page lists it.
    const page = (await client.post(`/api/licences/${kit.sef_id}`, {})).json();
    expect(page).toEqual({
      key,
      status: 'active',
      activation_limit: 3,
      activations: [{ id: body.instance.id, name: 'Work laptop', created_at: body.instance.created_at }],
    });

    const deactivated = await api('deactivate', { license_key: key, instance_id: body.instance.id });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json()).toEqual({
      deactivated: true,
      error: null,
      license_key: { ...inactive.json().license_key, status: 'inactive', activation_usage: 0 },
      meta,
    });
    const again = await api('deactivate', { license_key: key, instance_id: body.instance.id });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ deactivated: false, error: 'instance_id not found.' });
  });

  it('takes form bodies, as Lemon Squeezy’s clients send them', async () => {
    const { key } = await paidBuyer();
    const form = new URLSearchParams({ license_key: key, instance_name: 'CI runner' }).toString();
    const res = await api('activate', form, { type: 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ activated: true, instance: { name: 'CI runner' } });
  });

  it('answers an unknown key 404 on every verb', async () => {
    const unknown = 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH';
    const validate = await api('validate', { license_key: unknown });
    expect(validate.statusCode).toBe(404);
    expect(validate.json()).toEqual({ valid: false, error: 'license_key not found.' });
    expect((await api('activate', { license_key: unknown, instance_name: 'x' })).json()).toEqual({
      activated: false,
      error: 'license_key not found.',
    });
    expect((await api('deactivate', { license_key: unknown, instance_id: 'x' })).statusCode).toBe(404);
  });

  it('refuses a fourth activation, also when ten arrive at once', async () => {
    const { key } = await paidBuyer();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api('activate', { license_key: key, instance_name: `Machine ${i}` })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode === 400);
    expect(refused).toHaveLength(7);
    expect(refused[0]!.json()).toMatchObject({
      activated: false,
      error: 'This license key has reached its activation limit.',
      license_key: { activation_usage: 3 },
    });
    const usage = (await api('validate', { license_key: key })).json().license_key.activation_usage;
    expect(usage).toBe(3);
  });

  it('answers a refunded licence revoked: validate false, activation refused', async () => {
    const { key, orderId } = await paidBuyer(kits[1]);
    const activated = (await api('activate', { license_key: key, instance_name: 'Desk' })).json();
    expect((await owner.post(`/api/admin/orders/${orderId}/refund`, { reason: 'Changed their mind' })).statusCode).toBe(
      200,
    );
    const validate = await api('validate', { license_key: key, instance_id: activated.instance.id });
    expect(validate.statusCode).toBe(200);
    expect(validate.json()).toMatchObject({
      valid: false,
      error: 'This license key has been revoked.',
      license_key: { status: 'revoked' },
    });
    const activate = await api('activate', { license_key: key, instance_name: 'Another' });
    expect(activate.statusCode).toBe(400);
    expect(activate.json()).toMatchObject({ activated: false, license_key: { status: 'revoked' } });
  });
});

describe('the owner console', () => {
  it('lists an order’s keys masked; Disable, Enable and Reset Activations work and are logged', async () => {
    const { key, orderId, kit, user } = await paidBuyer();
    await api('activate', { license_key: key, instance_name: 'One' });
    await api('activate', { license_key: key, instance_name: 'Two' });
    const listed = (await owner.get(`/api/admin/orders/${orderId}/licences`)).json().items;
    expect(listed).toEqual([
      {
        id: expect.any(Number),
        kit_id: kit.id,
        kit_title: kit.title,
        holder: user.email,
        key: `****-****-****-****-****-****-****-${key.slice(-4)}`,
        status: 'active',
        activation_limit: 3,
        activation_usage: 2,
        created_at: expect.any(String),
      },
    ]);
    const id = listed[0].id;
    const lastActivity = async () => (await owner.get('/api/admin/activity?limit=1')).json().items[0];

    const disabled = await owner.post(`/api/admin/licences/${id}/disable`, {});
    expect(disabled.json()).toMatchObject({ status: 'disabled' });
    expect(await lastActivity()).toMatchObject({
      action: 'disable licence key',
      target: `customer ${user.id}`,
      detail: `${kit.title} key ${key.slice(-4)}`,
    });
    expect((await api('validate', { license_key: key })).json()).toMatchObject({
      valid: false,
      error: 'This license key has been disabled.',
      license_key: { status: 'disabled' },
    });
    expect((await api('activate', { license_key: key, instance_name: 'Three' })).statusCode).toBe(400);
    expect((await owner.post(`/api/admin/licences/${id}/disable`, {})).statusCode).toBe(409);

    expect((await owner.post(`/api/admin/licences/${id}/enable`, {})).json()).toMatchObject({ status: 'active' });
    expect((await lastActivity()).action).toBe('enable licence key');
    expect((await api('validate', { license_key: key })).json().valid).toBe(true);

    const reset = (await owner.post(`/api/admin/licences/${id}/reset-activations`, {})).json();
    expect(reset).toMatchObject({ status: 'inactive', activation_usage: 0 });
    expect(await lastActivity()).toMatchObject({
      action: 'reset licence activations',
      detail: `${kit.title} key ${key.slice(-4)}: 2 activations removed`,
    });
    expect((await owner.post('/api/admin/licences/999999/disable', {})).statusCode).toBe(404);
  });

  it('is the owners’ only: a customer gets 403', async () => {
    const { client } = await signedInClient(t.app, t.pool);
    expect((await client.post('/api/admin/licences/1/disable', {})).statusCode).toBe(403);
  });
});

describe('the item page', () => {
  it('deactivates one of the holder’s activations, and no one else’s', async () => {
    const { key, kit, client } = await paidBuyer();
    const instance = (await api('activate', { license_key: key, instance_name: 'Old laptop' })).json().instance;
    const stranger = await paidBuyer();
    const theirs = await stranger.client.post(`/api/licences/${kit.sef_id}/deactivate`, { instance_id: instance.id });
    expect(theirs.statusCode).toBe(404);
    const mine = await client.post(`/api/licences/${kit.sef_id}/deactivate`, { instance_id: instance.id });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ status: 'inactive', activations: [] });
    expect((await client.post(`/api/licences/${kit.sef_id}/deactivate`, {})).statusCode).toBe(422);
  });
});

/** Random bytes, odd JSON, wrong types and content types: every answer is a JSON 4xx with `error`. */
describe('bad bodies', () => {
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
  const junk = (): unknown =>
    pick<() => unknown>([
      () => null,
      () => 42,
      () => 'text',
      () => [],
      () => ({ license_key: 12 }),
      () => ({ license_key: { $ne: '' } }),
      () => ({ license_key: ['a', 'b'] }),
      () => ({ license_key: 'x'.repeat(5000), instance_name: 'y' }),
      () => ({ license_key: '', instance_id: '' }),
      () => ({ license_key: '\u0000\uffff', instance_name: '\ud800', instance_id: 7 }),
      () => ({ license_key: randomBytes(24).toString('base64'), instance_name: randomBytes(300).toString('hex') }),
    ])();
  const rawBody = () =>
    pick([
      () => JSON.stringify(junk()),
      () => randomBytes(Math.floor(Math.random() * 200)).toString('latin1'),
      () => '{"license_key":',
      () => 'license_key=%E0%A4%A&instance_name=%',
      () => 'license_key[]=a&license_key[]=b',
      () => '',
    ])();
  const TYPES = [
    'application/json',
    'application/x-www-form-urlencoded',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json; charset=latin1',
  ];

  it('never answer 5xx (300 random requests)', async () => {
    for (let i = 0; i < 300; i++) {
      const verb = pick(['activate', 'validate', 'deactivate']);
      const type = pick(TYPES);
      const payload = rawBody();
      const res = await api(verb, payload, { type, ip: `198.51.100.${i % 250}` });
      const context = `${verb} ${type} ${JSON.stringify(payload).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
      expect(res.statusCode, context).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, context).toBeLessThan(500);
      expect(typeof res.json().error, context).toBe('string');
      expect(res.headers['set-cookie'], context).toBeUndefined();
    }
  });

  it('answer a body over 16 KB 413, and a body without a content type 400, each with `error`', async () => {
    const big = await api('validate', { license_key: 'A'.repeat(20_000) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ valid: false, error: 'The request body is too large.' });
    const untyped = await t.app.inject({ method: 'POST', url: '/api/v1/licenses/activate', payload: 'license_key=x' });
    expect(untyped.statusCode).toBe(400);
    expect(untyped.json()).toEqual({
      activated: false,
      error: 'Send JSON (application/json) or form fields (application/x-www-form-urlencoded).',
    });
    const broken = await api('validate', '{"license_key":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ valid: false, error: 'The request body is not valid JSON.' });
  });

  it('name the field that is missing', async () => {
    const res = await api('activate', { license_key: 'AAAA' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ activated: false, error: 'instance_name is required.' });
    const typed = await api('validate', { license_key: 42 });
    expect(typed.json()).toEqual({ valid: false, error: 'license_key must be text.' });
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMITS: 'on' });
  });
  afterAll(() => limited.close());
  const call = (key: string, ip: string) =>
    limited.app.inject({
      method: 'POST',
      url: '/api/v1/licenses/validate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ license_key: key }),
      remoteAddress: ip,
    });

  it('allow 60 calls a minute per key (from many addresses) and per address (for many keys), then 429 with Retry-After', async () => {
    const key = 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH';
    for (let i = 0; i < 60; i++) expect((await call(key, `192.0.2.${i + 1}`)).statusCode).toBe(404);
    const over = await call(key, '192.0.2.200');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json()).toEqual({ valid: false, error: expect.stringMatching(/^Too many requests/) });

    for (let i = 0; i < 60; i++) expect((await call(`KEY-${i}`, '198.18.0.1')).statusCode).toBe(404);
    const byAddress = await call('ANOTHER-KEY', '198.18.0.1');
    expect(byAddress.statusCode).toBe(429);
    expect(byAddress.headers['retry-after']).toBeDefined();
  });
});

describe('the account’s data export', () => {
  it('lists each licence and its activations, never the key', async () => {
    const { key, kit, client } = await paidBuyer();
    await api('activate', { license_key: key, instance_name: 'Home desktop' });
    const res = await client.post('/api/account/export', {});
    expect(res.statusCode).toBe(200);
    expect(res.json().licences).toEqual([
      {
        kit_id: kit.id,
        title: kit.title,
        issued_at: expect.any(String),
        disabled_at: null,
        activations: [{ name: 'Home desktop', activated_at: expect.any(String) }],
      },
    ]);
    expect(res.body).not.toContain(key);
  });
});

describe('the demo kit’s verify-licence script', () => {
  it('activates this machine on its first run and validates on the next; an unknown key exits 1', async () => {
    const { execFile } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const script = path.resolve('content/kits/go-sveltekit-api/source/scripts/verify-licence.mjs');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'verify-licence-'));
    const run = (key: string) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          process.execPath,
          [script, key],
          { cwd, env: { ...process.env, KITSHOP_URL: address } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    try {
      const { key, kit } = await paidBuyer();
      const first = await run(key);
      expect(first).toMatchObject({ code: 0, out: expect.stringContaining(`Licence OK: ${kit.title}`) });
      expect(first.out).toContain('(1 of 3 machines)');
      const second = await run(key);
      expect(second).toMatchObject({ code: 0, out: expect.stringContaining('(1 of 3 machines)') });
      const unknown = await run('AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH');
      expect(unknown).toMatchObject({ code: 1, out: expect.stringContaining('license_key not found.') });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
