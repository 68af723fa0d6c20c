import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, signedInClient } from '../../../tests/setup/client.ts';
import { captureLog } from '../../../tests/setup/log.ts';
import { listenOnLoopback, openRawSocket, parseRawResponse } from '../../../tests/setup/raw-socket.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createLogger } from '../server.ts';

/**
 * The points of the ASVS 5.0 map (docs/security.md) that no feature's own tests prove: headers on
 * every kind of answer, no CORS, methods and files the shop never serves, request smuggling, bodies
 * that try to pollute prototypes or assign fields, and the plain 500.
 */

// A built web folder as `npm run build` leaves it, beside a folder that must never be reachable.
const root = mkdtempSync(path.join(os.tmpdir(), 'kitshop-web-'));
const webDir = path.join(root, 'web');
mkdirSync(path.join(webDir, 'assets'), { recursive: true });
mkdirSync(path.join(root, '.git'));
writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>raw shell</title>');
writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log(1)');
writeFileSync(path.join(webDir, 'assets', 'app-1234.js.br'), brotliCompressSync('console.log(1)'));
writeFileSync(path.join(root, '.git', 'config'), '[core] secret');
writeFileSync(path.join(root, 'package.json'), '{"name":"secret"}');

let t: TestApp;
let port: number;
const log = captureLog();

beforeAll(async () => {
  t = await createTestApp(
    { PUBLIC_URL: 'https://shop.test' },
    {
      webDir,
      logger: createLogger({ logLevel: 'info' }, log.stream),
      routes: (app) => {
        app.get('/api/test-crash', async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2 at /srv/kitshop/db.ts:12');
        });
      },
    },
  );
  port = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

describe('headers on every kind of answer (https shop)', () => {
  it('sends HSTS for a year with subdomains, nosniff and frame-ancestors on pages, calls, errors and files', async () => {
    const client = await createClient(t.app);
    const answers = [
      await t.app.inject({ method: 'GET', url: '/' }),
      await t.app.inject({ method: 'POST', url: '/api/products' }),
      await client.post('/api/purchases'), // 401
      await t.app.inject({ method: 'POST', url: '/api/login', payload: {} }), // 419
      await t.app.inject({ method: 'POST', url: '/api/no-such-call' }), // 404
      await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' }),
      await t.app.inject({ method: 'GET', url: '/healthz' }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 401, 419, 404, 200, 200]);
    for (const answer of answers) {
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(String(answer.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    }
  });

  it('names its character set: JSON and HTML as UTF-8', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/products' })).headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
    expect((await (await createClient(t.app)).post('/api/purchases')).headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
    expect((await t.app.inject({ method: 'GET', url: '/' })).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('allows no other origin: no CORS headers for a foreign Origin, nor for its preflight', async () => {
    const origin = 'https://evil.example';
    const read = await t.app.inject({ method: 'POST', url: '/api/products', headers: { origin } });
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/login',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-csrf-token' },
    });
    for (const answer of [read, preflight]) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
    expect(preflight.statusCode).toBe(404);
  });
});

describe('what the shop never serves', () => {
  it('answers TRACE without echoing the request', async () => {
    const res = await t.app.inject({ method: 'TRACE', url: '/', headers: { cookie: 'kitshop_session=secret-value' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.body).not.toContain('secret-value');
    expect(res.body).not.toContain('TRACE');
  });

  it('serves only the built web folder: no source control, no files beside it, no folder listings, no raw shell', async () => {
    for (const url of [
      '/.git/config',
      '/../.git/config',
      '/..%2f.git%2fconfig',
      '/%2e%2e/package.json',
      '/package.json',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('secret');
    }
    for (const url of ['/assets/', '/assets', '/media/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('app-1234.js');
    }
    const shell = await t.app.inject({ method: 'GET', url: '/index.html' });
    expect(shell.body).not.toContain('raw shell');
    expect((await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' })).body).toBe('console.log(1)');
  });

  it("sends a file's pre-compressed form in its place, and never by that form's own name", async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js', headers: { 'accept-encoding': 'br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload).toEqual(brotliCompressSync('console.log(1)'));
    const byName = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js.br' });
    expect(byName.statusCode).toBe(404);
    expect(byName.headers['content-encoding']).toBeUndefined();
  });
});

describe('HTTP messages', () => {
  it('refuses a request with both Transfer-Encoding and Content-Length (request smuggling) and closes it', async () => {
    const smuggled =
      'POST /api/products HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\n' +
      'Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/purchases HTTP/1.1\r\nHost: shop.test\r\n\r\n';
    const socket = await openRawSocket(port, smuggled);
    expect(await socket.closed(5000)).not.toBeNull();
    const raw = socket.received();
    expect(parseRawResponse(raw).status).toBe(400);
    // One answer only: the smuggled GET never reached the app.
    expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});

describe('bodies', () => {
  it('lets no JSON body reach Object.prototype (__proto__, constructor.prototype)', async () => {
    const client = await createClient(t.app);
    for (const body of [
      '{"email":"a@b.test","password":"x","__proto__":{"polluted":"yes"}}',
      '{"email":"a@b.test","password":"x","constructor":{"prototype":{"polluted":"yes"}}}',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: body,
        headers: {
          'content-type': 'application/json',
          'x-csrf-token': client.csrf,
          cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      expect(res.statusCode).toBeLessThan(500);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('takes only the fields a call defines: a sign-up cannot verify itself or pick its id', async () => {
    const client = await createClient(t.app);
    const res = await client.post('/api/register', {
      name: 'Mass Assign',
      email: 'mass-assign@example.test',
      password: 'a long passphrase 42!',
      id: 424242,
      email_verified_at: '2020-01-01T00:00:00Z',
      emailVerifiedAt: '2020-01-01T00:00:00Z',
      owner: true,
    });
    expect(res.statusCode).toBe(200);
    const { rows } = await t.pool.query('SELECT id, email_verified_at FROM users WHERE email = $1', [
      'mass-assign@example.test',
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).not.toBe(424242);
    expect(rows[0].email_verified_at).toBeNull();
  });

  it('answers a parameter given twice with a 4xx, never a 5xx', async () => {
    const client = await createClient(t.app);
    const twice = await client.post('/email/verify?email=a@b.test&email=c@d.test&token=x&token=y');
    expect(twice.statusCode).toBeLessThan(500);
    expect(twice.json().data.result).toBe('failed');
    const search = await t.app.inject({ method: 'GET', url: '/google/redirect?returnPath=a&returnPath=b' });
    expect(search.statusCode).toBeLessThan(500);
  });
});

describe('an unexpected error', () => {
  it('answers a plain 500 {message} without internals, and logs the error with its request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test-crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
    for (const secret of ['hunter2', 'ECONNREFUSED', '/srv/', 'db.ts', 'at ']) expect(res.body).not.toContain(secret);
    const line = log.lines().find((l) => l.msg === 'request failed');
    expect(line).toMatchObject({ reqId: res.headers['x-request-id'] });
    expect(JSON.stringify(line)).toContain('ECONNREFUSED');
  });
});

describe('the security log', () => {
  it('logs a failed sign-in and a refused call with their status and address, and a sign-in with the user and how', async () => {
    const stranger = await createClient(t.app, { ip: '203.0.113.9' });
    const failed = await stranger.post('/api/login', { email: 'nobody@example.test', password: 'wrong password' });
    expect(failed.statusCode).toBe(422);
    const failedLine = log
      .lines()
      .find((l) => l.reqId === failed.headers['x-request-id'] && l.msg === 'request completed');
    expect(failedLine).toMatchObject({
      req: { method: 'POST', url: '/api/login', remoteAddress: '203.0.113.9' },
      res: { statusCode: 422 },
    });
    expect(JSON.stringify(log.lines().filter((l) => l.reqId === failed.headers['x-request-id']))).not.toContain(
      'wrong password',
    );

    // A refused call (no session) is its request line with the status.
    const refused = await stranger.post('/api/purchases');
    expect(refused.statusCode).toBe(401);
    expect(
      log.lines().find((l) => l.reqId === refused.headers['x-request-id'] && l.msg === 'request completed'),
    ).toMatchObject({ res: { statusCode: 401 } });

    const { user } = await signedInClient(t.app, t.pool);
    const signedIn = log.lines().find((l) => l.msg === 'signed in' && l.userId === user.id);
    expect(signedIn).toMatchObject({ signIn: 'password', newDevice: expect.any(Boolean), time: expect.any(Number) });
    expect(JSON.stringify(signedIn)).not.toContain(user.password);
  });
});
