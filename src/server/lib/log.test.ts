import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../tests/setup/client.ts';
import { captureLog } from '../../../tests/setup/log.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createLogger } from '../server.ts';

const log = captureLog();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    { PUBLIC_URL: 'http://shop.test' },
    { logger: createLogger({ logLevel: 'info' }, log.stream) },
  );
});
afterAll(() => t.close());

const requestUrls = () =>
  log.lines().flatMap((line) => (line.msg === 'incoming request' ? [(line.req as { url: string }).url] : []));

describe('the request log', () => {
  it('keeps the path of a token route but not its query', async () => {
    const secret = 'S3cretT0ken-abcdefghijklmnopqrstuvwxyz';
    const email = 'ada.private%40example.com';
    const before = requestUrls().length;
    for (const url of [
      `/email/verify?token=${secret}&email=${email}`,
      `/reset-password?token=${secret}&email=${email}`,
      `/newsletter/unsubscribe?token=${secret}`,
      `/google/callback?code=${secret}&state=${secret}`,
      `/about?access_token=${secret}`,
      '/blog?page=2',
    ])
      await t.app.inject({ method: 'GET', url });
    await (await createClient(t.app)).post(`/email/verify?token=${secret}&email=${email}`);
    expect(requestUrls().slice(before)).toEqual([
      '/email/verify?[redacted]',
      '/reset-password?[redacted]',
      '/newsletter/unsubscribe?[redacted]',
      '/google/callback?[redacted]',
      '/about?[redacted]',
      '/blog?page=2', // other queries stay readable
      '/',
      '/email/verify?[redacted]',
    ]);
    expect(log.text()).not.toContain(secret);
    expect(log.text()).not.toContain('ada.private');
  });

  it("keeps a search's text out of the log, and the rest of its query", async () => {
    const before = requestUrls().length;
    await t.app.inject({ method: 'GET', url: '/api/admin/customers?query=grace.hopper%40example.com&limit=25' });
    await t.app.inject({ method: 'GET', url: '/api/admin/orders?status=paid&query=Grace%20Hopper' });
    expect(requestUrls().slice(before)).toEqual([
      '/api/admin/customers?query=[redacted]&limit=25',
      '/api/admin/orders?status=paid&query=[redacted]',
    ]);
    expect(log.text()).not.toContain('grace.hopper');
    expect(log.text()).not.toContain('Grace');
  });
});

describe('a failed query in the log', () => {
  it('carries the statement and the PostgreSQL error, not the values (names, e-mails)', async () => {
    await t.pool.query('ALTER TABLE contact_messages RENAME TO contact_messages_away');
    try {
      const res = await (await createClient(t.app)).post('/api/contact', {
        name: 'Grace Secretname',
        email: 'grace.secret@example.com',
        message: 'A confidential question',
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.pool.query('ALTER TABLE contact_messages_away RENAME TO contact_messages');
    }
    const failed = log.lines().find((line) => line.msg === 'request failed');
    expect(failed?.err).toMatchObject({
      type: 'DrizzleQueryError',
      query: expect.stringMatching(/^insert into "contact_messages" \("id", "topic", "name", "email", "message"/),
      code: '42P01',
    });
    expect((failed!.err as { message: string }).message).toContain('relation "contact_messages" does not exist');
    for (const value of ['Grace Secretname', 'grace.secret', 'confidential', 'params']) {
      expect(log.text()).not.toContain(value);
    }
  });

  it('leaves out values that PostgreSQL itself puts into its message or detail', async () => {
    const logged = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      const lines = captureLog();
      const logger = createLogger({ logLevel: 'info' }, lines.stream);
      logger.error({ err: error }, 'query failed');
      // The error as the only argument, and Fastify's default error log, which uses its message.
      logger.error(error);
      logger.child({ reqId: 'x' }).error({ err: error }, (error as Error).message);
      const [line, ...others] = lines.lines() as { err: { query: string }; msg: string }[];
      for (const other of [line!, ...others]) expect(other.err).toEqual(line!.err);
      expect(others.map((other) => other.msg)).toEqual([
        `Failed query: ${line!.err.query}`,
        `Failed query: ${line!.err.query}`,
      ]);
      expect(lines.text()).not.toContain('params');
      return line!.err as unknown as Record<string, unknown>;
    };
    // invalid input syntax for type integer: "grace.secret@example.com"
    const cast = await logged(() => t.db.execute(sql`SELECT ${'grace.secret@example.com'}::int`));
    expect(cast).toMatchObject({ code: '22P02', query: 'SELECT $1::int' });
    expect(cast.message).toContain('invalid input syntax for type integer');
    // Key (lower(email))=(grace.secret@example.com) already exists.
    await t.db.execute(sql`INSERT INTO subscribers (email, token_hash) VALUES (${'grace.secret@example.com'}, 'h1')`);
    const duplicate = await logged(() =>
      t.db.execute(sql`INSERT INTO subscribers (email, token_hash) VALUES (${'Grace.Secret@example.com'}, 'h2')`),
    );
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'subscribers_email_lower_key' });
    expect(JSON.stringify([cast, duplicate]).toLowerCase()).not.toContain('grace.secret');
  });
});
