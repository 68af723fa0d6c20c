import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKits } from '../../../../tests/factories/users.ts';
import {
  type Client,
  createClient,
  deliverWebhook,
  sandboxPay,
  signedInClient,
} from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { sandboxRefundApproved, sandboxWebhookSecret } from '../../integrations/payments/sandbox.ts';

let t: TestApp;
let alpha: number;
let team: number;
const secret = sandboxWebhookSecret('test-secret-test-secret-test-secret');

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  alpha = (await t.pool.query("SELECT id FROM kits WHERE sef_id = 'alpha-kit'")).rows[0].id;
  team = (await t.pool.query("SELECT id FROM kit_licences WHERE tier = 'team'")).rows[0].id;
});
afterAll(async () => {
  await t?.close();
});

const address = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.test`;

async function buyTeam() {
  const buyer = await signedInClient(t.app, t.pool, { name: 'Grace Hopper' });
  const cart = (await buyer.client.post('/api/cart', { products: [team], checkout: true })).json();
  expect((await sandboxPay(buyer.client, cart.order_id)).statusCode).toBe(200);
  return { ...buyer, orderId: cart.order_id as string };
}

/** The link's token of the newest invitation mailed to an address. */
async function invitationToken(to: string): Promise<string> {
  const { rows } = await t.pool.query(
    `SELECT text FROM mail_outbox WHERE lower("to") = lower($1) AND subject LIKE '%invited you%' ORDER BY id DESC LIMIT 1`,
    [to],
  );
  return /\/seat-invitation\/([A-Za-z0-9_-]+)/.exec(rows[0].text)![1]!;
}

const seatsTable = async (orderId: string) =>
  (
    await t.pool.query(
      `SELECT s.email, s.status FROM team_seats s JOIN order_items i ON i.id = s.order_item_id
         JOIN orders o ON o.id = i.order_id WHERE o.public_id = $1 ORDER BY s.id`,
      [orderId],
    )
  ).rows;

/** The holder's licence key of Alpha Kit, as the item page reads it. */
const licenceOf = async (client: Client) => (await client.post('/api/licences/alpha-kit', {})).json();

const validate = async (key: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/v1/licenses/validate', payload: { license_key: key } })).json();

const ownsAlpha = async (client: Client) =>
  (await client.post('/api/purchases', {})).json().items.some((i: { id: number }) => i.id === alpha);

describe('team seats', () => {
  it('shows the buyer 1 of M seats used, the buyer holding the first', async () => {
    const { client, user } = await buyTeam();
    const seats = (await client.get('/api/seats/alpha-kit')).json();
    expect(seats).toEqual({
      team: {
        licence: 'Team',
        seats: 3,
        used: 1,
        members: [
          {
            id: null,
            status: 'owner',
            name: 'Grace Hopper',
            email: user.email,
            invited_at: expect.any(String),
            accepted_at: expect.any(String),
          },
        ],
      },
      managed_by: null,
    });
    // A Solo owner, and someone who owns nothing, have no team.
    const solo = await signedInClient(t.app, t.pool);
    await grantKits(t.pool, solo.user.id, [alpha]);
    expect((await solo.client.get('/api/seats/alpha-kit')).json()).toEqual({ team: null, managed_by: null });
    expect((await solo.client.post('/api/seats/alpha-kit/invite', { email: address('x') })).statusCode).toBe(404);
    expect((await (await createClient(t.app)).get('/api/seats/alpha-kit')).statusCode).toBe(401);
  });

  it('refuses a non-e-mail, the same address twice (any case), the buyer, and more than the seats; nothing changes', async () => {
    const { client, user, orderId } = await buyTeam();
    const bad = await client.post('/api/seats/alpha-kit/invite', { email: 'not-an-address' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/^email: /);
    const own = await client.post('/api/seats/alpha-kit/invite', { email: user.email.toUpperCase() });
    expect(own.statusCode).toBe(409);
    const first = address('first');
    expect((await client.post('/api/seats/alpha-kit/invite', { email: first })).json().team.used).toBe(2);
    const twice = await client.post('/api/seats/alpha-kit/invite', { email: first.toUpperCase() });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toContain('has a seat or an invitation');
    expect((await client.post('/api/seats/alpha-kit/invite', { email: address('second') })).json().team.used).toBe(3);
    const beyond = await client.post('/api/seats/alpha-kit/invite', { email: address('third') });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().message).toBe(
      'All 3 seats are taken: remove a member or cancel an invitation to invite someone else.',
    );
    expect(await seatsTable(orderId)).toHaveLength(2);
  });

  it('takes its seats one at a time when invitations race', async () => {
    const { client, orderId } = await buyTeam();
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => client.post('/api/seats/alpha-kit/invite', { email: address(`race${i}`) })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(3);
    expect(await seatsTable(orderId)).toHaveLength(2);
  });

  it('lets the invitee with that address (any case) accept: they own the kit, download it and see who manages the seat', async () => {
    const { client: buyer, user: buyerUser } = await buyTeam();
    const email = address('dana');
    await buyer.post('/api/seats/alpha-kit/invite', { email });
    const token = await invitationToken(email);
    const anon = await createClient(t.app);
    expect((await anon.get(`/api/seat-invitations/${token}`)).json()).toEqual({
      sef_id: 'alpha-kit',
      kit_title: 'Alpha Kit',
      licence: 'Team',
      manager_name: 'Grace Hopper',
      email,
      status: 'pending',
    });
    expect((await anon.post(`/api/seat-invitations/${token}/accept`, {})).statusCode).toBe(401);
    const stranger = await signedInClient(t.app, t.pool);
    const wrong = await stranger.client.post(`/api/seat-invitations/${token}/accept`, {});
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(`This invitation is for ${email}. Sign in with that address to accept it.`);
    expect((await stranger.client.get(`/download/${alpha}`)).statusCode).toBe(403);

    const dana = await signedInClient(t.app, t.pool, { email: email.toUpperCase(), name: 'Dana' });
    const accepted = await dana.client.post(`/api/seat-invitations/${token}/accept`, {});
    expect(accepted.json()).toEqual({ sef_id: 'alpha-kit', title: 'Alpha Kit' });
    expect(await ownsAlpha(dana.client)).toBe(true);
    expect((await dana.client.get(`/download/${alpha}`)).statusCode).toBe(200);
    expect((await dana.client.post('/api/item/alpha-kit', {})).statusCode).toBe(200);
    const { rows } = await t.pool.query('SELECT id, source FROM entitlements WHERE user_id = $1', [dana.user.id]);
    expect(rows[0].source).toMatch(/^seat:\d+$/);
    expect((await dana.client.get('/api/seats/alpha-kit')).json()).toEqual({
      team: null,
      managed_by: { name: 'Grace Hopper', email: buyerUser.email, licence: 'Team' },
    });
    expect((await buyer.get('/api/seats/alpha-kit')).json().team.members[1]).toMatchObject({
      status: 'active',
      name: 'Dana',
    });
    // The same link once more: accepted already.
    expect((await dana.client.post(`/api/seat-invitations/${token}/accept`, {})).statusCode).toBe(409);
    // The seat came with its own key, issued with the acceptance, of the Team tier's limit; so has the buyer's.
    const keys = await t.pool.query('SELECT activation_limit FROM licence_keys WHERE entitlement_id = $1', [
      rows[0].id,
    ]);
    expect(keys.rows).toEqual([{ activation_limit: 5 }]);
    const danaKey = await licenceOf(dana.client);
    expect(danaKey).toMatchObject({ status: 'inactive', activation_limit: 5 });
    expect(await licenceOf(buyer)).toMatchObject({ activation_limit: 5 });
    expect((await licenceOf(buyer)).key).not.toBe(danaKey.key);
    for (let i = 1; i <= 5; i++) {
      const activated = await t.app.inject({
        method: 'POST',
        url: '/api/v1/licenses/activate',
        payload: { license_key: danaKey.key, instance_name: `box ${i}` },
      });
      expect(activated.statusCode).toBe(200);
    }
    const sixth = await t.app.inject({
      method: 'POST',
      url: '/api/v1/licenses/activate',
      payload: { license_key: danaKey.key, instance_name: 'box 6' },
    });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().license_key).toMatchObject({ activation_limit: 5, activation_usage: 5 });
  });

  it('removes a member (access ends), cancels and resends invitations (the old link stops working)', async () => {
    const { client: buyer, orderId } = await buyTeam();
    const email = address('eve');
    await buyer.post('/api/seats/alpha-kit/invite', { email });
    const eve = await signedInClient(t.app, t.pool, { email });
    // Eve connected GitHub: the seat gives her the kit's repository, and taking the seat back ends it.
    await t.pool.query('INSERT INTO github_accounts (user_id, github_id, login) VALUES ($1, $2, $3)', [
      eve.user.id,
      eve.user.id + 7_000_000,
      `eve-${eve.user.id}`,
    ]);
    await eve.client.post(`/api/seat-invitations/${await invitationToken(email)}/accept`, {});
    const jobs = async () =>
      (await t.pool.query('SELECT action, repository FROM github_jobs WHERE user_id = $1 ORDER BY id', [eve.user.id]))
        .rows;
    expect(await jobs()).toEqual([{ action: 'grant', repository: 'kitshop-test/alpha-kit' }]);
    const pendingEmail = address('pat');
    const invited = (await buyer.post('/api/seats/alpha-kit/invite', { email: pendingEmail })).json();
    const [, member, pending] = invited.team.members;

    const oldToken = await invitationToken(pendingEmail);
    expect((await buyer.post(`/api/seats/alpha-kit/${pending.id}/resend`, {})).statusCode).toBe(200);
    const newToken = await invitationToken(pendingEmail);
    expect(newToken).not.toBe(oldToken);
    const anon = await createClient(t.app);
    expect((await anon.get(`/api/seat-invitations/${oldToken}`)).statusCode).toBe(404);
    // Remove is for members, cancel for invitations.
    expect((await buyer.post(`/api/seats/alpha-kit/${pending.id}/remove`, {})).statusCode).toBe(409);
    expect((await buyer.post(`/api/seats/alpha-kit/${member.id}/cancel`, {})).statusCode).toBe(409);
    // Someone else's buyer cannot touch these seats.
    const other = await buyTeam();
    expect((await other.client.post(`/api/seats/alpha-kit/${member.id}/remove`, {})).statusCode).toBe(404);

    const cancelled = (await buyer.post(`/api/seats/alpha-kit/${pending.id}/cancel`, {})).json();
    expect(cancelled.team.used).toBe(2);
    const pat = await signedInClient(t.app, t.pool, { email: pendingEmail });
    expect((await pat.client.post(`/api/seat-invitations/${newToken}/accept`, {})).statusCode).toBe(409);

    const removed = (await buyer.post(`/api/seats/alpha-kit/${member.id}/remove`, {})).json();
    expect(removed.team.used).toBe(1);
    expect(await ownsAlpha(eve.client)).toBe(false);
    expect((await eve.client.get(`/download/${alpha}`)).statusCode).toBe(403);
    expect((await jobs()).at(-1)).toEqual({ action: 'revoke', repository: 'kitshop-test/alpha-kit' });
    expect(await seatsTable(orderId)).toEqual([
      { email, status: 'removed' },
      { email: pendingEmail, status: 'cancelled' },
    ]);
  });

  it('refuses an invitee who owns the kit already, keeping the seat free', async () => {
    const { client: buyer } = await buyTeam();
    const email = address('owner');
    await buyer.post('/api/seats/alpha-kit/invite', { email });
    const owner = await signedInClient(t.app, t.pool, { email });
    await grantKits(t.pool, owner.user.id, [alpha]);
    const res = await owner.client.post(`/api/seat-invitations/${await invitationToken(email)}/accept`, {});
    expect(res.statusCode).toBe(409);
    expect((await buyer.get('/api/seats/alpha-kit')).json().team.members[1].status).toBe('pending');
  });

  it('ends every seat when the Team purchase is refunded', async () => {
    const { client: buyer, orderId } = await buyTeam();
    const email = address('member');
    await buyer.post('/api/seats/alpha-kit/invite', { email });
    const member = await signedInClient(t.app, t.pool, { email });
    await member.client.post(`/api/seat-invitations/${await invitationToken(email)}/accept`, {});
    const pendingEmail = address('later');
    await buyer.post('/api/seats/alpha-kit/invite', { email: pendingEmail });
    expect(await ownsAlpha(member.client)).toBe(true);
    const keys = [(await licenceOf(buyer)).key, (await licenceOf(member.client)).key];
    for (const key of keys) expect(await validate(key)).toMatchObject({ valid: true });

    const { rows } = await t.pool.query(
      `SELECT o.transaction_id, i.transaction_item_id FROM orders o JOIN order_items i ON i.order_id = o.id
        WHERE o.public_id = $1`,
      [orderId],
    );
    const refund = sandboxRefundApproved({
      transactionId: rows[0].transaction_id,
      customerId: 'ctm_test',
      reason: 'test',
      lines: [{ itemId: rows[0].transaction_item_id, amountCents: 0 }],
    });
    expect((await deliverWebhook(t.app, refund, secret)).json().outcome).toBe('refunded');
    expect(await ownsAlpha(member.client)).toBe(false);
    expect(await ownsAlpha(buyer)).toBe(false);
    expect(await seatsTable(orderId)).toEqual([
      { email, status: 'removed' },
      { email: pendingEmail, status: 'cancelled' },
    ]);
    // The buyer's key and every seat's answer revoked.
    for (const key of keys)
      expect(await validate(key)).toMatchObject({ valid: false, license_key: { status: 'revoked' } });
    expect((await buyer.get('/api/seats/alpha-kit')).json().team).toBeNull();
  });

  it('ends the seats of an upgrade from Solo when the Solo purchase it counted is refunded', async () => {
    const buyer = await signedInClient(t.app, t.pool);
    const solo = (await buyer.client.post('/api/cart', { products: [alpha], checkout: true })).json();
    await sandboxPay(buyer.client, solo.order_id);
    const soloKey = await licenceOf(buyer.client);
    expect(soloKey.activation_limit).toBe(3);
    const upgrade = (await buyer.client.post('/api/cart', { products: [team], checkout: true })).json();
    expect(upgrade.total).toBe(160);
    await sandboxPay(buyer.client, upgrade.order_id);
    // The upgrade keeps the Solo key and raises its limit to the Team tier's.
    expect(await licenceOf(buyer.client)).toMatchObject({ key: soloKey.key, activation_limit: 5 });
    const email = address('up');
    await buyer.client.post('/api/seats/alpha-kit/invite', { email });
    const member = await signedInClient(t.app, t.pool, { email });
    await member.client.post(`/api/seat-invitations/${await invitationToken(email)}/accept`, {});
    expect(await ownsAlpha(member.client)).toBe(true);

    const { rows } = await t.pool.query(
      `SELECT o.transaction_id, i.transaction_item_id FROM orders o JOIN order_items i ON i.order_id = o.id
        WHERE o.public_id = $1`,
      [solo.order_id],
    );
    const refund = sandboxRefundApproved({
      transactionId: rows[0].transaction_id,
      customerId: 'ctm_test',
      reason: 'test',
      lines: [{ itemId: rows[0].transaction_item_id, amountCents: 0 }],
    });
    expect((await deliverWebhook(t.app, refund, secret)).json().outcome).toBe('refunded');
    expect(await ownsAlpha(buyer.client)).toBe(false);
    expect(await ownsAlpha(member.client)).toBe(false);
    expect(await seatsTable(upgrade.order_id)).toEqual([{ email, status: 'removed' }]);
  });

  it.each([
    ['its Team line alone', (line: { kit_id: number }) => line.kit_id === alpha],
    ['the whole order', () => true],
  ])(
    "lowers a Solo owner's key back to Solo's limit when a Team upgrade is refunded (%s); activations stay",
    async (_, refunded) => {
      const machine = (verb: string, body: object) =>
        t.app.inject({ method: 'POST', url: `/api/v1/licenses/${verb}`, payload: body, remoteAddress: '198.51.100.9' });
      const buyer = await signedInClient(t.app, t.pool);
      const solo = (await buyer.client.post('/api/cart', { products: [alpha], checkout: true })).json();
      expect((await sandboxPay(buyer.client, solo.order_id)).statusCode).toBe(200);
      const beta = (await t.pool.query("SELECT id FROM kits WHERE sef_id = 'beta-kit'")).rows[0].id;
      const upgrade = (await buyer.client.post('/api/cart', { products: [team, beta], checkout: true })).json();
      expect((await sandboxPay(buyer.client, upgrade.order_id)).statusCode).toBe(200);
      const { key, activation_limit } = await licenceOf(buyer.client);
      expect(activation_limit).toBe(5);
      const instances: string[] = [];
      for (const name of ['Desk', 'Laptop', 'CI', 'Build box'])
        instances.push((await machine('activate', { license_key: key, instance_name: name })).json().instance.id);

      const { rows } = await t.pool.query(
        `SELECT o.transaction_id, i.transaction_item_id, i.kit_id FROM orders o JOIN order_items i ON i.order_id = o.id
        WHERE o.public_id = $1 ORDER BY i.id`,
        [upgrade.order_id],
      );
      const refund = sandboxRefundApproved({
        transactionId: rows[0].transaction_id,
        customerId: 'ctm_test',
        reason: 'test',
        lines: rows.filter(refunded).map((row) => ({ itemId: row.transaction_item_id, amountCents: 0 })),
      });
      expect((await deliverWebhook(t.app, refund, secret)).json().outcome).toBe('refunded');

      // The Solo purchase keeps the kit and its key, at Solo's limit; the four activations stay.
      expect(await ownsAlpha(buyer.client)).toBe(true);
      expect(await licenceOf(buyer.client)).toMatchObject({ key, activation_limit: 3 });
      expect((await machine('validate', { license_key: key })).json()).toMatchObject({
        valid: true,
        license_key: { status: 'active', activation_limit: 3, activation_usage: 4 },
      });
      expect((await machine('activate', { license_key: key, instance_name: 'Fifth' })).statusCode).toBe(400);
      // Below the limit again, one more machine may be activated, and no more.
      for (const id of instances.slice(0, 2))
        expect((await machine('deactivate', { license_key: key, instance_id: id })).statusCode).toBe(200);
      expect((await machine('activate', { license_key: key, instance_name: 'New desk' })).statusCode).toBe(200);
      const over = await machine('activate', { license_key: key, instance_name: 'One too many' });
      expect(over.statusCode).toBe(400);
      expect(over.json()).toMatchObject({
        activated: false,
        license_key: { activation_limit: 3, activation_usage: 3 },
      });
    },
  );

  it("shows the owner console a Team purchase's seats on its order and customer pages; an owner frees a seat", async () => {
    const { client: buyer, user, orderId } = await buyTeam();
    const email = address('fred');
    await buyer.post('/api/seats/alpha-kit/invite', { email });
    const fred = await signedInClient(t.app, t.pool, { email, name: 'Fred' });
    await fred.client.post(`/api/seat-invitations/${await invitationToken(email)}/accept`, {});
    const pendingEmail = address('gail');
    await buyer.post('/api/seats/alpha-kit/invite', { email: pendingEmail });

    const { client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test' });
    const order = (await owner.get(`/api/admin/orders/${orderId}`)).json();
    expect(order.teams).toEqual([
      {
        order_id: orderId,
        title: 'Alpha Kit (Team, 3 developers)',
        seats: 3,
        used: 3,
        members: [
          expect.objectContaining({ status: 'active', name: 'Fred', email }),
          expect.objectContaining({ status: 'pending', name: null, email: pendingEmail }),
        ],
      },
    ]);
    const customer = (await owner.get(`/api/admin/customers/${user.id}`)).json();
    expect(customer.teams).toEqual(order.teams);
    const member = (await owner.get(`/api/admin/customers/${fred.user.id}`)).json();
    expect(member.kits).toEqual([expect.objectContaining({ kit_id: alpha, source: 'seat', order_id: orderId })]);
    // Buyers may not use the owner's call.
    const seatId = order.teams[0].members[0].id;
    expect((await buyer.post(`/api/admin/seats/${seatId}/free`, {})).statusCode).toBe(403);
    // The order's keys: the buyer's and the seat holder's, each of the tier's limit.
    const fredKey = (await licenceOf(fred.client)).key as string;
    const licences = (await owner.get(`/api/admin/orders/${orderId}/licences`)).json().items;
    expect(licences).toHaveLength(2);
    expect(licences.map((l: { key: string }) => l.key.slice(-4))).toContain(fredKey.slice(-4));
    expect(licences.map((l: { holder: string }) => l.holder).sort()).toEqual([user.email, email].sort());
    for (const licence of licences) expect(licence).toMatchObject({ status: 'inactive', activation_limit: 5 });
    expect(await validate(fredKey)).toMatchObject({ valid: true });

    const freed = (await owner.post(`/api/admin/seats/${seatId}/free`, {})).json();
    expect(freed.teams[0]).toMatchObject({ used: 2, members: [{ email: pendingEmail }] });
    expect(await ownsAlpha(fred.client)).toBe(false);
    // The freed seat's key stops validating.
    expect(await validate(fredKey)).toMatchObject({ valid: false, license_key: { status: 'revoked' } });
    const after = (await owner.get(`/api/admin/orders/${orderId}/licences`)).json().items;
    expect(after.map((l: { status: string }) => l.status).sort()).toEqual(['inactive', 'revoked']);
    const activity = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    expect(activity).toMatchObject({ action: 'free seat', target: `order ${orderId}`, detail: `member ${email}` });
    expect((await owner.post(`/api/admin/seats/${seatId}/free`, {})).statusCode).toBe(409);
    expect((await owner.post('/api/admin/seats/999999/free', {})).statusCode).toBe(404);
  });

  it("gives keys from before their limit column their tier's limit (migration 0025's backfill)", async () => {
    const { client: buyer, user } = await buyTeam();
    const email = address('old');
    await buyer.post('/api/seats/alpha-kit/invite', { email });
    const member = await signedInClient(t.app, t.pool, { email });
    await member.client.post(`/api/seat-invitations/${await invitationToken(email)}/accept`, {});
    const solo = await signedInClient(t.app, t.pool);
    await grantKits(t.pool, solo.user.id, [alpha]);
    await licenceOf(solo.client);
    const ids = [user.id, member.user.id, solo.user.id];
    await t.pool.query('UPDATE licence_keys SET activation_limit = 3 WHERE user_id = ANY($1)', [ids]);
    const migration = readFileSync(
      new URL('../../db/migrations/0025_licence_key_limits.sql', import.meta.url),
      'utf8',
    ).split('--> statement-breakpoint')[1]!;
    await t.pool.query(migration);
    const { rows } = await t.pool.query(
      'SELECT user_id, activation_limit FROM licence_keys WHERE user_id = ANY($1) ORDER BY user_id',
      [ids],
    );
    expect(rows).toEqual([
      { user_id: user.id, activation_limit: 5 },
      { user_id: member.user.id, activation_limit: 5 },
      { user_id: solo.user.id, activation_limit: 3 },
    ]);
  });

  it('answers a made-up or malformed invitation link 404', async () => {
    const anon = await createClient(t.app);
    expect((await anon.get(`/api/seat-invitations/${'a'.repeat(32)}`)).statusCode).toBe(404);
    expect((await anon.get('/api/seat-invitations/bad')).statusCode).toBe(404);
    const { client } = await signedInClient(t.app, t.pool);
    expect((await client.post(`/api/seat-invitations/${'b'.repeat(32)}/accept`, {})).statusCode).toBe(404);
    expect((await client.post('/api/seats/alpha-kit/abc/remove', {})).statusCode).toBe(404);
  });
});
