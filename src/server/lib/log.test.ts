import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../tests/setup/client.ts';
import { captureLog } from '../../../tests/setup/log.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createGithubOAuth, createGithubRepositories } from '../integrations/github/github.ts';
import { createGoogleSignIn } from '../integrations/oidc/google.ts';
import { createLogger } from '../server.ts';
import { requestLogger } from './log.ts';

const log = captureLog();
let t: TestApp;
/** Every route the app registers (Google and GitHub sign-in included), as Fastify's onRoute saw it. */
const routes: RouteOptions[] = [];
beforeAll(async () => {
  // Nothing is called at these addresses: the integrations are there for their routes to exist.
  const github = {
    token: 'ghp_unused',
    clientId: 'Iv1.unused',
    clientSecret: 'unused',
    apiUrl: 'http://127.0.0.1:9/api',
    webUrl: 'http://127.0.0.1:9',
  };
  t = await createTestApp(
    {
      PUBLIC_URL: 'http://shop.test',
      GITHUB_TOKEN: github.token,
      GITHUB_CLIENT_ID: github.clientId,
      GITHUB_CLIENT_SECRET: github.clientSecret,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_WEB_URL: github.webUrl,
    },
    {
      logger: createLogger({ logLevel: 'info' }, log.stream),
      google: createGoogleSignIn({
        issuer: 'http://127.0.0.1:9',
        clientId: 'unused',
        clientSecret: 'unused',
        redirectUri: 'http://shop.test/google/callback',
      }),
      github: {
        oauth: createGithubOAuth({ ...github, redirectUri: 'http://shop.test/github/callback' }),
        repositories: createGithubRepositories(github),
        jobsQueued: () => {},
      },
      beforeRoutes: (app) => {
        app.addHook('onRoute', (route) => {
          routes.push(route);
        });
      },
    },
  );
});
afterAll(() => t.close());

const requestUrls = () =>
  log.lines().flatMap((line) => (line.msg === 'request completed' ? [(line.req as { url: string }).url] : []));

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

describe('every route with a secret in its query', () => {
  /**
   * Where a query carries a credential (a single-use token, an OAuth code and state), with what it
   * carries: the shop's callbacks, and the links it mails (the web app's pages post some of them on).
   */
  const SECRET_QUERIES: Record<string, string> = {
    '/email/verify': 'the verification link: token and address',
    '/email/change': 'the e-mail change link: token and new address',
    '/reset-password': 'the password reset link: token and address',
    '/newsletter/unsubscribe': 'the unsubscribe link: token',
    '/google/callback': "Google's answer: code and state",
    '/github/callback': "GitHub's answer: code and state",
  };
  /** Routes and links whose query is no secret, with what it carries. */
  const PLAIN_QUERIES: Record<string, string> = {
    '/google/redirect': 'returnPath, reauth',
    '/github/connect': 'returnPath',
    '/sandbox/checkout': 'order_id',
    '/api/admin/summary': 'a period',
    '/api/admin/orders': 'filters, a page, a search (its text redacted)',
    '/api/admin/customers': 'a page, a search (its text redacted)',
    '/api/admin/orders.csv': 'a date range',
    '/api/admin/messages': 'a status, a page, a search (its text redacted)',
    '/api/admin/subscribers': 'a page, a search (its text redacted)',
    '/api/admin/activity': 'a page',
    '/login': 'what went wrong or the next step',
    '/user-panel': 'a tab',
  };

  /** The routes whose handler reads its query (request.query, or the URL's own search), and every callback. */
  const routesReadingQuery = () =>
    new Set(
      routes
        .filter(
          (route) =>
            /\.query\b(?!\s*\()|\.search\b|searchParams|["'`]\?["'`]/.test(String(route.handler)) ||
            /callback/i.test(route.url),
        )
        .map((route) => route.url),
    );

  /** The paths of the links with a query the server writes (mails, pages, redirects). */
  const linksWithQuery = () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const links = new Set<string>();
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const source = readFileSync(path.join(root, file), 'utf8');
      for (const match of source.matchAll(/(?:publicUrl|basePath)\}(\/[\w/.-]*)\?/g)) links.add(match[1]!);
    }
    return links;
  };

  it('every route that reads its query, every callback and every link with a query is classified', () => {
    const reading = routesReadingQuery();
    const links = linksWithQuery();
    // The onRoute hook saw the optional sign-ins' routes too, and the scan found the mailed links.
    expect([...reading]).toEqual(expect.arrayContaining(['/google/callback', '/github/callback', '/api/admin/orders']));
    expect([...links]).toEqual(expect.arrayContaining(['/reset-password', '/email/change']));
    const classified = { ...SECRET_QUERIES, ...PLAIN_QUERIES };
    expect([...reading, ...links].filter((url) => !(url in classified))).toEqual([]);
    // And the lists name nothing that is gone (the list would prove nothing about it).
    expect(Object.keys(classified).filter((url) => !reading.has(url) && !links.has(url))).toEqual([]);
  });

  it('the log keeps no query of a route that carries a secret, whatever its parameters are named', async () => {
    const secret = 'S3cretC0de-abcdefghijklmnopqrstuvwxyz';
    const before = requestUrls().length;
    // Named neither token nor query: only the route's own redaction can keep these out.
    for (const route of Object.keys(SECRET_QUERIES))
      for (const method of ['GET', 'POST'] as const)
        await t.app.inject({ method, url: `${route}?code=${secret}&state=${secret}&email=ada.private%40example.com` });
    expect(requestUrls().slice(before)).toEqual(
      Object.keys(SECRET_QUERIES).flatMap((route) => [`${route}?[redacted]`, `${route}?[redacted]`]),
    );
    expect(log.text()).not.toContain(secret);
    expect(log.text()).not.toContain('ada.private');
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

describe("a request's logger", () => {
  /** A logger at `level` whose children are counted. */
  function counted(level: 'warn' | 'info') {
    const lines = captureLog();
    const parent = createLogger({ logLevel: level }, lines.stream);
    let children = 0;
    const child = parent.child;
    // pino's children inherit `child` from their parent: the count calls the original on `this`.
    parent.child = function (this: typeof parent, ...args: Parameters<typeof child>) {
      children++;
      return child.apply(this, args);
    } as typeof parent.child;
    return { parent, lines, children: () => children };
  }

  it('makes its pino child only when it writes a line, and writes it with the request id', () => {
    const { parent, lines, children } = counted('warn');
    const log = requestLogger(parent, { reqId: 'req-1' }, {});
    log.info({ res: { statusCode: 200 } }, 'request completed');
    log.debug('not written');
    expect(children()).toBe(0);
    expect(lines.lines()).toEqual([]);
    log.warn({ detail: 'a' }, 'first');
    log.error('second');
    log.info('still below the level');
    expect(children()).toBe(1);
    expect(lines.lines().map(({ reqId, msg, level }) => ({ reqId, msg, level }))).toEqual([
      { reqId: 'req-1', msg: 'first', level: 40 },
      { reqId: 'req-1', msg: 'second', level: 50 },
    ]);
  });

  it("follows a route's own level, and a level set on it", () => {
    const { parent, lines } = counted('warn');
    const route = requestLogger(parent, { reqId: 'req-2' }, { level: 'debug' });
    expect(route.level).toBe('debug');
    route.debug('written at the route level');
    const quiet = requestLogger(parent, { reqId: 'req-3' }, {});
    expect(quiet.level).toBe('warn');
    quiet.level = 'info';
    quiet.info('written after the level changed');
    expect(lines.lines().map(({ reqId, msg }) => `${reqId}: ${msg}`)).toEqual([
      'req-2: written at the route level',
      'req-3: written after the level changed',
    ]);
  });

  it('gives children of its own with both bindings', () => {
    const { parent, lines } = counted('info');
    requestLogger(parent, { reqId: 'req-4' }, {}).child({ job: 'mail' }).info('sent');
    expect(lines.lines()).toEqual([expect.objectContaining({ reqId: 'req-4', job: 'mail', msg: 'sent' })]);
  });
});
