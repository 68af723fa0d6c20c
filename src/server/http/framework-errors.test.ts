import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback, openRawSocket, parseRawResponse } from '../../../tests/setup/raw-socket.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  port = await listenOnLoopback(t.app);
});
afterAll(() => t.close());

/** What every answer carries, even one Fastify or Node gives before any route runs. */
function expectShopAnswer(status: number, headers: Record<string, unknown>, body: string) {
  expect(headers['content-security-policy']).toMatch(/default-src 'self'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(body)).toEqual({ message: expect.any(String) });
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
}

describe('framework errors', () => {
  it('answers an undecodable URL (/%) with 400, {message} and the security headers', async () => {
    for (const url of ['/%', '/blog/%E0%A4%A', '/api/product/%zz']) {
      const res = await t.app.inject({ method: url.startsWith('/api') ? 'POST' : 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expectShopAnswer(res.statusCode, res.headers, res.body);
      expect(res.body).not.toContain('%');
    }
  });

  it('answers a path part longer than the router takes with 414, {message} and the security headers', async () => {
    // GET paths fall back to the page shell's wildcard (a 404 page); POST calls have no such fallback.
    const res = await t.app.inject({ method: 'POST', url: `/api/product/${'a'.repeat(300)}` });
    expect(res.statusCode).toBe(414);
    expectShopAnswer(res.statusCode, res.headers, res.body);
    expect(res.body).not.toContain('aaaa');
  });

  it('answers a URL longer than Node reads (16 KB of headers) with 431, {message} and the security headers', async () => {
    const socket = await openRawSocket(port, `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await socket.closed(2000);
    const answer = parseRawResponse(socket.received());
    expect(answer.status).toBe(431);
    expectShopAnswer(answer.status, answer.headers, answer.body);
  });

  it('answers a request that is not HTTP with 400, {message} and the security headers', async () => {
    const socket = await openRawSocket(port, 'HELLO\r\n\r\n');
    await socket.closed(2000);
    const answer = parseRawResponse(socket.received());
    expect(answer.status).toBe(400);
    expectShopAnswer(answer.status, answer.headers, answer.body);
  });
});
