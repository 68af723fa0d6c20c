import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Starts the app on a free loopback port, for tests that need real sockets. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
  return address.port;
}

export type RawSocket = {
  /** Everything the server wrote so far. */
  received: () => string;
  /** Resolves with the milliseconds from connect to close, or null if the socket is still open after `withinMs`. */
  closed: (withinMs: number) => Promise<number | null>;
  write: (data: string) => void;
  destroy: () => void;
};

/** A TCP connection that sends `data` as is (a half-sent request, say) and records what comes back. */
export async function openRawSocket(port: number, data = ''): Promise<RawSocket> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  const started = Date.now();
  let text = '';
  let closedAt: number | null = null;
  const whenClosed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      closedAt = Date.now();
      resolve();
    });
  });
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
  });
  socket.on('error', () => {}); // a reset is one way of being closed
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (data) socket.write(data);
  return {
    received: () => text,
    async closed(withinMs) {
      await Promise.race([whenClosed, new Promise((r) => setTimeout(r, Math.max(0, started + withinMs - Date.now())))]);
      return closedAt === null ? null : closedAt - started;
    },
    write: (more) => socket.write(more),
    destroy: () => socket.destroy(),
  };
}

/** The status line, headers (lower-cased names) and body of the first HTTP answer in `raw`. */
export function parseRawResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
