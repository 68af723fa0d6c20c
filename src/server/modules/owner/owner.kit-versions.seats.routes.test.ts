import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, sandboxPay, signedInClient } from '../../../../tests/setup/client.ts';
import { kitZip, publishVersion } from '../../../../tests/setup/kit-archives.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';

let t: TestApp;
let owner: Client;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' });
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test', name: 'The Boss' }));
});
afterAll(() => t?.close());

/** The link's token of the newest invitation mailed to an address. */
async function invitationToken(to: string): Promise<string> {
  const { rows } = await t.pool.query(
    `SELECT text FROM mail_outbox WHERE "to" = $1 AND subject LIKE '%invited you%' ORDER BY id DESC LIMIT 1`,
    [to],
  );
  return /\/seat-invitation\/([A-Za-z0-9_-]+)/.exec(rows[0].text)![1]!;
}

describe('update mails of a Team purchase', () => {
  it('go to the buyer and each seat holder, not to a member whose seat was freed', async () => {
    const team = (await t.pool.query("SELECT id FROM kit_licences WHERE tier = 'team'")).rows[0].id;
    const lead = await signedInClient(t.app, t.pool, { email: 'lead@example.test' });
    const cart = (await lead.client.post('/api/cart', { products: [team], checkout: true })).json();
    expect((await sandboxPay(lead.client, cart.order_id)).statusCode).toBe(200);
    for (const email of ['member@example.test', 'former@example.test']) {
      expect((await lead.client.post('/api/seats/alpha-kit/invite', { email })).statusCode).toBe(200);
      const member = await signedInClient(t.app, t.pool, { email });
      const accepted = await member.client.post(`/api/seat-invitations/${await invitationToken(email)}/accept`, {});
      expect(accepted.statusCode).toBe(200);
    }
    const seats = (await lead.client.get('/api/seats/alpha-kit')).json().team.members;
    const former = seats.find((m: { email: string }) => m.email === 'former@example.test');
    expect((await lead.client.post(`/api/seats/alpha-kit/${former.id}/remove`, {})).statusCode).toBe(200);

    const published = await publishVersion(t.app, owner, 'alpha-kit', {
      version: '1.2.0',
      notes: '## Changes\n\n- Faster builds',
      filename: 'alpha.zip',
      bytes: kitZip('alpha-kit-1.2.0', { 'README.md': '# Alpha kit\n\nVersion 1.2.0.\n' }),
    });
    expect(published.statusCode).toBe(200);
    const mails = (
      await t.pool.query('SELECT "to", text FROM mail_outbox WHERE ref LIKE \'kit-version:%\' ORDER BY "to"')
    ).rows;
    expect(mails.map((m) => m.to)).toEqual(['lead@example.test', 'member@example.test']);
    expect(mails[1].text).toContain('http://shop.test/user-panel/item/alpha-kit#changelog');
  });
});
