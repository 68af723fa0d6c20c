import net from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A closed-loop HTTP/1.1 load: `connections` keep-alive connections, each sending its next request
 * as soon as the previous answer has ended, for `durationS` seconds. It reads each answer's status
 * line and headers and skips its body's bytes without keeping them.
 *
 * Why not autocannon for these runs: autocannon appends every body chunk to a string (`body +=
 * chunk`), which decodes a compressed body as UTF-8 on the load's own core. For a 9 KB gzip page
 * that made the client the bottleneck (the server idled a third of the run while autocannon was
 * saturated), so the figure measured the client, not the page. Here a body of known length is only counted.
 */
export type HttpLoadOptions = {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  connections: number;
  durationS: number;
  /** An answer slower than this counts as a timeout and its connection is opened again. */
  timeoutS: number;
};

export type HttpLoadResult = {
  total: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Every answer's time in ms, ascending (for figures over several runs). */
  latencies: number[];
  /** How long the run took, in seconds (what `requestsPerSecond` is over). */
  elapsedS: number;
};

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');
const EMPTY = Buffer.alloc(0);

/** The request's bytes: the same for every request of the run. */
function requestBytes(url: URL, method: string, headers: Record<string, string>): Buffer {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (method !== 'GET') lines.push('Content-Length: 0');
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

type Answer = { status: number; close: boolean; length: number | null; chunked: boolean; headerBytes: number };

/** The status line and the headers that frame the body, or null while they are incomplete. */
function readHead(buffer: Buffer): Answer | null {
  const end = buffer.indexOf(HEADER_END);
  if (end < 0) return null;
  const head = buffer.toString('latin1', 0, end).split('\r\n');
  const status = Number(head[0]?.slice(9, 12));
  let length: number | null = null;
  let chunked = false;
  let close = false;
  for (let i = 1; i < head.length; i++) {
    const line = head[i]!;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.includes('chunked');
    else if (name === 'connection') close = value === 'close';
  }
  return { status, close, length, chunked, headerBytes: end + HEADER_END.length };
}

/** The value at percentile `p` of ascending `sorted` times, rounded to 0.1 ms. */
export function percentile(sorted: number[], p: number): number {
  const value = sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
  return Math.round(value * 10) / 10;
}

/** Runs the load (loopback URLs only) and resolves with its figures. */
export function runHttpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const url = new URL(options.url);
  if (url.hostname !== '127.0.0.1') throw new Error(`bench: refusing to load a non-loopback URL: ${options.url}`);
  const request = requestBytes(url, options.method, options.headers ?? {});
  const port = Number(url.port || 80);
  const latencies: number[] = [];
  const figures = { non2xx: 0, errors: 0, timeouts: 0 };
  const started = performance.now();
  const endsAt = started + options.durationS * 1000;
  const timeoutMs = options.timeoutS * 1000;
  let open = 0;

  return new Promise((resolve) => {
    const sockets = new Set<net.Socket>();
    const finish = () => {
      clearInterval(watchdog);
      clearTimeout(backstop);
      for (const socket of sockets) socket.destroy();
      const elapsedS = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      resolve({
        total: latencies.length,
        requestsPerSecond: latencies.length / elapsedS,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        ...figures,
        latencies,
        elapsedS,
      });
    };
    const sentAt = new Map<net.Socket, number>();
    const connect = () => {
      if (performance.now() >= endsAt) {
        if (open === 0) finish();
        return;
      }
      open++;
      const socket = net.connect({ host: url.hostname, port, noDelay: true });
      sockets.add(socket);
      let buffer: Buffer = EMPTY;
      let answer: Answer | null = null;
      let done = false;
      const send = () => {
        sentAt.set(socket, performance.now());
        socket.write(request);
      };
      const close = (error: boolean) => {
        if (done) return;
        done = true;
        if (error) figures.errors++;
        sentAt.delete(socket);
        sockets.delete(socket);
        socket.destroy();
        open--;
        connect();
      };
      socket.on('connect', send);
      socket.on('error', () => close(true));
      socket.on('close', () => close(false));
      // The answer being read: its head is kept until it is complete, a body of known length is
      // only counted down (never copied), a chunked one is kept until its last chunk.
      let remaining = 0;
      socket.on('data', (chunk: Buffer) => {
        let data = chunk;
        for (;;) {
          if (answer && !answer.chunked) {
            const taken = Math.min(remaining, data.length);
            remaining -= taken;
            data = data.subarray(taken);
            if (remaining > 0) return;
          } else {
            buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data]);
            data = EMPTY;
            if (!answer) {
              answer = readHead(buffer);
              if (!answer) return;
              buffer = buffer.subarray(answer.headerBytes);
              if (!answer.chunked) {
                remaining = answer.length ?? 0;
                data = buffer;
                buffer = EMPTY;
                continue;
              }
            }
            const end = buffer.indexOf(CHUNKED_END);
            if (end < 0) return;
            data = buffer.subarray(end + CHUNKED_END.length);
            buffer = EMPTY;
          }
          const now = performance.now();
          latencies.push(now - (sentAt.get(socket) ?? now));
          if (answer.status < 200 || answer.status > 299) figures.non2xx++;
          const reconnect = answer.close;
          answer = null;
          if (reconnect || now >= endsAt) return close(false);
          send();
          if (data.length === 0) return;
        }
      });
    };
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (const [socket, at] of sentAt) {
        if (now - at > timeoutMs) {
          figures.timeouts++;
          sentAt.delete(socket);
          socket.destroy();
        }
      }
    }, 250);
    for (let i = 0; i < options.connections; i++) connect();
    // A backstop, so no run can hang the bench: whatever is still open by then is ended.
    const backstop = setTimeout(
      () => {
        open = 0;
        finish();
      },
      (options.durationS + options.timeoutS + 5) * 1000,
    );
  });
}
