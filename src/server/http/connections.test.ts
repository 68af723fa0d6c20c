import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback, openRawSocket, parseRawResponse } from '../../../tests/setup/raw-socket.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import type { Config } from '../config.ts';

// The production limits, shrunk so the test waits about a second rather than half a minute.
const LIMITS: Config['connections'] = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 600,
  keepAliveTimeoutMs: 400,
  checkIntervalMs: 100,
  maxConnections: 1000,
};
// Node checks the timeouts every checkIntervalMs; the rest is slack for a busy machine.
const GRACE_MS = 1000;

const halfSentBody = [
  'POST /api/webhooks/paddle HTTP/1.1',
  'Host: 127.0.0.1',
  'Content-Type: application/json',
  'Content-Length: 1000',
  '',
  '{',
].join('\r\n');

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      configure: (config) => ({ ...config, connections: LIMITS }),
      routes: (app) => {
        // A response that takes longer than the request timeout to stream, as a big download on a slow line does.
        app.get('/slow-download', { config: { csrf: false } }, async (_request, reply) => {
          let sent = 0;
          const body = new Readable({
            read() {
              if (sent === 6) return void this.push(null);
              sent += 1;
              setTimeout(() => this.push(Buffer.alloc(64 * 1024, 120)), 250);
            },
          });
          return reply
            .type('application/octet-stream')
            .header('content-length', String(6 * 64 * 1024))
            .send(body);
        });
      },
    },
  );
  port = await listenOnLoopback(t.app);
});
afterAll(() => t.close());

describe('socket timeouts', () => {
  it('closes 300 sockets that sent headers and one byte of a larger body within the request timeout', async () => {
    const sockets = await Promise.all(Array.from({ length: 300 }, () => openRawSocket(port, halfSentBody)));
    const closedAfter = await Promise.all(sockets.map((s) => s.closed(LIMITS.requestTimeoutMs + GRACE_MS)));
    for (const s of sockets) s.destroy();
    expect(closedAfter.filter((ms) => ms === null)).toHaveLength(0);
    expect(Math.max(...(closedAfter as number[]))).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs);
    // The client learns why, in the shop's own error shape.
    const answer = parseRawResponse(sockets[0]!.received());
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ message: expect.any(String) });
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('closes a socket that sends half its headers, or nothing, within the headers timeout', async () => {
    const halfHeaders = await openRawSocket(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const silent = await openRawSocket(port);
    expect(await halfHeaders.closed(LIMITS.headersTimeoutMs + GRACE_MS)).not.toBeNull();
    expect(await silent.closed(LIMITS.headersTimeoutMs + GRACE_MS)).not.toBeNull();
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const socket = await openRawSocket(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // Node closes an idle keep-alive socket 1 s after the timeout it announces in Keep-Alive.
    const closedAfter = await socket.closed(LIMITS.keepAliveTimeoutMs + 1000 + GRACE_MS);
    socket.destroy();
    expect(parseRawResponse(socket.received()).status).toBe(200);
    expect(closedAfter).not.toBeNull();
  });

  it('does not cut a response that streams for longer than the request timeout', async () => {
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${port}/slow-download`);
    const body = await res.arrayBuffer();
    expect(Date.now() - started).toBeGreaterThan(LIMITS.requestTimeoutMs + 500);
    expect(body.byteLength).toBe(6 * 64 * 1024);
  });
});

describe('connection cap', () => {
  let capped: TestApp;
  let cappedPort: number;
  beforeAll(async () => {
    capped = await createTestApp(
      {},
      { configure: (config) => ({ ...config, connections: { ...LIMITS, maxConnections: 5 } }) },
    );
    cappedPort = await listenOnLoopback(capped.app);
  });
  afterAll(() => capped.close());

  it('drops connections over the cap and takes new ones once the held ones are gone', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => openRawSocket(cappedPort, halfSentBody)));
    const extra = await openRawSocket(cappedPort, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await extra.closed(500)).not.toBeNull();
    expect(extra.received()).toBe('');
    for (const s of held) s.destroy();
    // Once the server has seen the held ones close, a new connection is taken again.
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${cappedPort}/healthz`).catch(() => null))?.status, {
        timeout: 5_000,
      })
      .toBe(200);
  });
});
