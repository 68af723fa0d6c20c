import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import { type KeptPageLookup, PAGE_HEADERS } from './page-shell.ts';
import { acceptedEncoding } from './precompressed.ts';
import type { CsrfIssuer } from './security.ts';

/** Answers a request itself and says true, or says false and leaves it to Fastify. */
export type DirectAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The settings of Fastify's options that its own HTTP/1 server applies (defaults filled in by Fastify). */
type ServerSettings = {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would make (with its timeouts), whose
 * requests go to `direct()` first and to Fastify's handler when it declines. `direct` is asked for
 * at each request: the answers it knows are set up after the routes (see app.ts).
 */
export function serverWithDirectAnswers(direct: () => DirectAnswer | undefined): FastifyServerFactory {
  return (handler, fastifyOptions) => {
    const options = fastifyOptions as ServerSettings;
    const server = http.createServer(options.http ?? {}, (request, response) => {
      if (!direct()?.(request, response)) handler(request, response);
    });
    // As Fastify's own server: these settings are applied by it only to a server it makes itself.
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}

/**
 * Kept public pages for visitors without a session, answered straight from Node's request event
 * (issue 12). Most visits of a public page are exactly this: the same bytes for everyone but the
 * visitor's CSRF token, spliced into the page's gzip. Fastify's pipeline (routing, the request and
 * reply objects, six hooks, the child logger) cost more than everything else such a page does, so
 * these answers skip it and write what it would have written: the shop's security headers, the
 * request id, the page's headers, the CSRF cookie on a first visit, the request's metric and its log
 * line. Anything else (another method, a session cookie, no gzip, a page not kept, a shop that is
 * closing) goes to Fastify as before; page-shell.ts serves those same pages there.
 */
export function keptPageAnswers(deps: {
  keptPage: KeptPageLookup;
  /** The shop's security headers (security.ts). */
  securityHeaders: Record<string, string>;
  requestId: (request: IncomingMessage) => string;
  csrf: CsrfIssuer;
  sessionCookie: string;
  /** True once the shop is closing: Fastify then answers 503 and closes the connection. */
  closing: () => boolean;
  basePath: string;
  /** The proxies trusted with `X-Forwarded-*` (Fastify's `trustProxy`), for the log line. */
  trustProxy: string[] | false;
  /** The request metric, when metrics are on (metrics.ts). */
  observeRequest?: (method: string, route: string, status: number, seconds: number) => void;
  /** Where each answer's `request completed` line goes, when requests are logged (info and below). */
  log?: FastifyBaseLogger;
}): DirectAnswer {
  const { csrf, basePath, log } = deps;
  const fixed = Object.entries({ ...deps.securityHeaders, ...PAGE_HEADERS, 'content-encoding': 'gzip' }).flat();
  // The shell's two routes, as Fastify names them in the metric: the home page's, and every other page's.
  const homePaths = new Set([basePath || '/', `${basePath}/`]);
  const trusted = deps.trustProxy ? proxyAddr.compile(deps.trustProxy) : () => false;
  /** The request as Fastify's log serializer reads it: address and host through the trusted proxy only. */
  const loggedRequest = (request: IncomingMessage) => {
    const { method, url, headers, socket } = request;
    const forwardedHost = [headers['x-forwarded-host'] ?? []].flat().join(',');
    const viaProxy = forwardedHost && socket.remoteAddress && trusted(socket.remoteAddress, 0);
    const host = viaProxy ? (forwardedHost.split(',').pop() ?? '').trim() : (headers.host ?? '');
    return { method, url, headers, socket, host, ip: proxyAddr(request, trusted) };
  };
  /** What Fastify's hooks would have recorded of the answer: its metric and its log line. */
  const answered = (request: IncomingMessage, id: string, status: number, seconds: number) => {
    const route = homePaths.has(request.url ?? '') ? basePath || '/' : `${basePath}/*`;
    deps.observeRequest?.('GET', route, status, seconds);
    log?.info(
      { reqId: id, req: loggedRequest(request), res: { statusCode: status }, responseTime: seconds * 1000 },
      'request completed',
    );
  };
  return (request, response) => {
    const started = performance.now();
    if (request.method !== 'GET' || deps.closing() || !acceptedEncoding(request, ['gzip'])) return false;
    let status: number;
    let id: string;
    let headers: string[];
    let body: Uint8Array[];
    try {
      const cookieHeader = request.headers.cookie;
      const cookies = cookieHeader ? fastifyCookie.parse(cookieHeader) : undefined;
      if (cookies?.[deps.sessionCookie]) return false;
      const page = request.url ? deps.keptPage(request.url) : undefined;
      if (!page) return false;
      id = deps.requestId(request);
      const known = cookies?.[csrf.cookieName];
      const secret = known || csrf.newSecret();
      const token = csrf.token(secret);
      body = page.gzip.pieces(token);
      status = page.status;
      headers = [...fixed, 'x-request-id', id, 'content-length', String(page.gzip.byteLength(token.length))];
      if (!known) headers.push('set-cookie', csrf.setCookie(secret));
    } catch {
      // Nothing is written yet: Fastify answers, and logs whatever fails there.
      return false;
    }
    response.writeHead(status, headers);
    // The socket is corked until the end: the pieces leave in one write.
    const last = body.length - 1;
    for (let at = 0; at < last; at++) response.write(body[at]);
    response.end(body[last]);
    answered(request, id, status, (performance.now() - started) / 1000);
    return true;
  };
}
