import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, signedInClient } from '../../../../tests/setup/client.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';

let t: TestApp;
let owner: Client;

beforeAll(async () => {
  t = await createTestApp({ OWNER_EMAILS: 'boss@shop.test' });
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test', name: 'The Boss' }));
});
afterAll(() => t.close());

type Listed = { total: number; items: { id?: number; email: string; name?: string }[]; next_cursor: string | null };

/** Every page of a list, following its cursors. */
async function allPages(path: string, limit: number): Promise<Listed[]> {
  const pages: Listed[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await owner.get(`${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode).toBe(200);
    const page = res.json() as Listed;
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

describe('messages in the console', () => {
  beforeAll(async () => {
    // Seven messages a minute apart, the last two at the same moment (the id breaks the tie).
    for (let i = 1; i <= 7; i++) {
      await t.pool.query(
        `INSERT INTO contact_messages (name, email, message, topic, created_at, answered_at)
         VALUES ($1, $2, $3, 'Other', timestamptz '2026-11-01 10:00Z' + make_interval(mins => $4), $5)`,
        [
          i === 3 ? 'Grace Hopper' : `Sender ${i}`,
          i === 5 ? 'grace@navy.test' : `sender${i}@example.com`,
          i === 6 ? 'Is 100% of the code typed? under_score' : `Question number ${i}`,
          Math.min(i, 6),
          i % 2 === 0 ? new Date('2026-11-02T00:00:00Z') : null,
        ],
      );
    }
  });

  it('lists them newest first, page by page by cursor, with the total of the list on every page', async () => {
    const pages = await allPages('/api/admin/messages?status=all', 3);
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(pages.every((p) => p.total === 7)).toBe(true);
    const names = pages.flatMap((p) => p.items.map((m) => m.name));
    expect(names).toEqual(['Sender 7', 'Sender 6', 'Sender 5', 'Sender 4', 'Grace Hopper', 'Sender 2', 'Sender 1']);
  });

  it('filters by status before paging: new ones, then answered ones', async () => {
    const fresh = await allPages('/api/admin/messages?status=new', 2);
    expect(fresh.flatMap((p) => p.items.map((m) => m.name))).toEqual([
      'Sender 7',
      'Sender 5',
      'Grace Hopper',
      'Sender 1',
    ]);
    expect(fresh[0]!.total).toBe(4);
    const answered = (await owner.get('/api/admin/messages?status=answered')).json() as Listed;
    expect(answered.total).toBe(3);
    expect(answered.next_cursor).toBeNull();
  });

  it('searches name, e-mail and text on the server, without regard to case, pattern characters taken literally', async () => {
    const search = async (query: string, status = 'all') =>
      (
        (await owner.get(`/api/admin/messages?status=${status}&query=${encodeURIComponent(query)}`)).json() as Listed
      ).items.map((m) => m.name);
    expect(await search('grace')).toEqual(['Sender 5', 'Grace Hopper']);
    expect(await search('QUESTION NUMBER 2')).toEqual(['Sender 2']);
    expect(await search('100%')).toEqual(['Sender 6']);
    expect(await search('_')).toEqual(['Sender 6']);
    expect(await search('%')).toEqual(['Sender 6']);
    expect(await search('grace', 'answered')).toEqual([]);
    const counted = (await owner.get('/api/admin/messages?query=grace')).json() as Listed;
    expect(counted.total).toBe(2);
  });

  it('answers bad paging with 422 and a message, never 5xx', async () => {
    for (const bad of ['limit=0', 'limit=101', 'limit=two', 'cursor=nonsense', `query=${'x'.repeat(201)}`]) {
      const res = await owner.get(`/api/admin/messages?${bad}`);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().message).toBeTruthy();
    }
  });
});

describe('subscribers in the console', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 5; i++) {
      await t.pool.query(
        `INSERT INTO subscribers (email, token_hash, subscribed_at, unsubscribed_at)
         VALUES ($1, md5($1), timestamptz '2026-10-01 10:00Z' + make_interval(days => $2), $3)`,
        [
          i === 2 ? 'Ada@Lovelace.test' : `reader${i}@example.com`,
          Math.min(i, 4),
          i === 3 ? new Date('2026-11-01T00:00:00Z') : null,
        ],
      );
    }
  });

  it('lists active subscribers newest first by cursor, with their number', async () => {
    const pages = await allPages('/api/admin/subscribers', 2);
    expect(pages.flatMap((p) => p.items.map((s) => s.email))).toEqual([
      'reader5@example.com',
      'reader4@example.com',
      'Ada@Lovelace.test',
      'reader1@example.com',
    ]);
    expect(pages.map((p) => p.total)).toEqual([4, 4]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
  });

  it('searches e-mail addresses on the server and counts what matches', async () => {
    const found = (await owner.get('/api/admin/subscribers?query=lovelace')).json() as Listed;
    expect(found).toEqual({
      total: 1,
      items: [{ email: 'Ada@Lovelace.test', subscribed_at: '2026-10-03T10:00:00.000Z' }],
      next_cursor: null,
    });
    // An unsubscribed address is not listed, even when searched for.
    expect(((await owner.get('/api/admin/subscribers?query=reader3')).json() as Listed).total).toBe(0);
    expect((await owner.get('/api/admin/subscribers?cursor=x')).statusCode).toBe(422);
  });
});
