import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import { type KeptPageLookup, PAGE_HEADERS } from './page-shell.ts';
import { acceptedEncoding, JSON_TYPE, type PrecompressedBody, VARY_ENCODING } from './precompressed.ts';
import { type CsrfIssuer, DEFAULT_CACHE_CONTROL } from './security.ts';

/** The request types the direct answer takes as Fastify would (JSON, as the shop's client sends it). */
const JSON_REQUEST = /^application\/json(; ?charset=utf-8)?$/;

/** An answer written before Fastify: its metric's route, status, request id, headers and body pieces. */
type Answer = { route: string; status: number; id: string; headers: string[]; body: Uint8Array[] };

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
 * The answers that are the same for every visitor without a session, given straight from Node's
 * request event (issue 12): the kept public pages (the same bytes for everyone but the visitor's CSRF
 * token, spliced into the page's gzip, or into its plain bytes for a client that names no encoding)
 * and the catalog's list (`POST /api/products` with no body, its kept compressed JSON as it is).
 * Fastify's pipeline (routing, the request and reply objects, six hooks, the child logger) costs
 * more than everything else such an answer does, so these skip it and write what it would have
 * written: the shop's security headers, the request id, the answer's own headers, the CSRF cookie on
 * a page's first visit, the request's metric and its log line. Anything else (a session cookie, a
 * body, a page or answer not kept yet, a shop that is closing, ...) goes to Fastify as before;
 * page-shell.ts and the catalog's routes serve those same answers there.
 */
export function keptAnswers(deps: {
  keptPage: KeptPageLookup;
  /**
   * The catalog's list (catalog.routes.ts): its route's whole path (base path included), and its kept
   * body when the catalog is in memory.
   */
  catalogList: { path: string; kept: () => PrecompressedBody | undefined };
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
  const pageHeaders = Object.entries({ ...deps.securityHeaders, ...PAGE_HEADERS }).flat();
  // As the catalog's route answers: its type, the Vary of a kept body, and the default Cache-Control
  // of an answer that sets none (security.ts).
  const listHeaders = Object.entries({
    ...deps.securityHeaders,
    'content-type': JSON_TYPE,
    vary: VARY_ENCODING,
    'cache-control': DEFAULT_CACHE_CONTROL,
  }).flat();
  // The shell's two routes, as Fastify names them in the metric: the home page's, and every other page's.
  const homePaths = new Set([basePath || '/', `${basePath}/`]);
  const listPath = deps.catalogList.path;
  const trusted = deps.trustProxy ? proxyAddr.compile(deps.trustProxy) : () => false;
  /** The request as Fastify's log serializer reads it: address and host through the trusted proxy only. */
  const loggedRequest = (request: IncomingMessage) => {
    const { method, url, headers, socket } = request;
    const forwardedHost = [headers['x-forwarded-host'] ?? []].flat().join(',');
    const viaProxy = forwardedHost && socket.remoteAddress && trusted(socket.remoteAddress, 0);
    const host = viaProxy ? (forwardedHost.split(',').pop() ?? '').trim() : (headers.host ?? '');
    return { method, url, headers, socket, host, ip: proxyAddr(request, trusted) };
  };
  /** Writes the answer (its pieces through the corked socket, in one write) and records it as Fastify's hooks would. */
  const send = (request: IncomingMessage, response: ServerResponse, answer: Answer, started: number) => {
    const { body, status } = answer;
    response.writeHead(status, answer.headers);
    const last = body.length - 1;
    for (let at = 0; at < last; at++) response.write(body[at]);
    response.end(body[last]);
    const seconds = (performance.now() - started) / 1000;
    deps.observeRequest?.(request.method ?? '', answer.route, status, seconds);
    log?.info(
      { reqId: answer.id, req: loggedRequest(request), res: { statusCode: status }, responseTime: seconds * 1000 },
      'request completed',
    );
  };
  /** Nothing from the request's cookies but whether it has a session, and its CSRF secret. */
  const cookiesOf = (request: IncomingMessage) => {
    const header = request.headers.cookie;
    return header ? fastifyCookie.parse(header) : undefined;
  };

  /**
   * A kept page in gzip, or as it is to a client that names no encoding at all (Fastify's answer
   * then is the page uncompressed too). Any other `Accept-Encoding` goes to Fastify.
   */
  const page = (request: IncomingMessage): Answer | undefined => {
    const plain = request.headers['accept-encoding'] === undefined;
    if (!plain && !acceptedEncoding(request, ['gzip'])) return undefined;
    const cookies = cookiesOf(request);
    if (cookies?.[deps.sessionCookie]) return undefined;
    const kept = request.url ? deps.keptPage(request.url) : undefined;
    if (!kept) return undefined;
    const id = deps.requestId(request);
    const known = cookies?.[csrf.cookieName];
    const secret = known || csrf.newSecret();
    const token = csrf.token(secret);
    const splice = plain ? kept.plain : kept.gzip;
    const headers = [...pageHeaders, 'x-request-id', id, 'content-length', String(splice.byteLength(token.length))];
    if (!plain) headers.push('content-encoding', 'gzip');
    if (!known) headers.push('set-cookie', csrf.setCookie(secret));
    const route = homePaths.has(request.url ?? '') ? basePath || '/' : `${basePath}/*`;
    return { route, status: kept.status, id, headers, body: splice.pieces(token) };
  };

  /**
   * The list as the catalog's route answers a request without a body: Fastify would parse none (or
   * an empty JSON one) and need no CSRF token. A body of any kind, or another type, goes to Fastify.
   */
  const list = (request: IncomingMessage): Answer | undefined => {
    const { headers: asked } = request;
    if (request.url !== listPath || asked['transfer-encoding'] !== undefined) return undefined;
    if (asked['content-length'] !== undefined && asked['content-length'] !== '0') return undefined;
    const type = asked['content-type'];
    if (type !== undefined && !JSON_REQUEST.test(type)) return undefined;
    if (cookiesOf(request)?.[deps.sessionCookie]) return undefined;
    const kept = deps.catalogList.kept();
    const encoding = acceptedEncoding(request);
    const bytes = kept && (encoding ? kept.ready(encoding) : kept.plain);
    if (!bytes) return undefined;
    const id = deps.requestId(request);
    const headers = [...listHeaders, 'x-request-id', id, 'content-length', String(bytes.length)];
    if (encoding) headers.push('content-encoding', encoding);
    return { route: listPath, status: 200, id, headers, body: [bytes] };
  };

  return (request, response) => {
    const started = performance.now();
    const { method } = request;
    if ((method !== 'GET' && method !== 'POST') || deps.closing()) return false;
    let answer: Answer | undefined;
    try {
      answer = method === 'GET' ? page(request) : list(request);
    } catch {
      // Nothing is written yet: Fastify answers, and logs whatever fails there.
      return false;
    }
    if (!answer) return false;
    send(request, response, answer, started);
    return true;
  };
}
