import { hash, randomFillSync } from 'node:crypto';
import Tokens from '@fastify/csrf';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Config } from '../config.ts';
import { shopCookies } from './cookies.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The security headers of every answer, written here (no Helmet) and computed once at start: a
 * strict CSP (scripts only from the shop itself and the services configured; the initial data is
 * a JSON block, which CSP does not treat as script), no sniffing, no framing by other sites, HSTS
 * on https. app.ts sets them in its hook for every request, and hands them to the answers Fastify
 * gives before any hook runs (a bad URL, a timed-out request).
 */
export function securityHeaders(config: Config, options: { dev: boolean }): Record<string, string> {
  const ga = config.gaMeasurementId ? ['https://www.googletagmanager.com'] : [];
  const gaConnect = config.gaMeasurementId
    ? ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com']
    : [];
  const paddle = config.paymentProvider === 'paddle' ? ['https://cdn.paddle.com'] : [];
  // Paddle.js talks to Paddle's checkout service and shows its own images.
  const paddleConnect = config.paymentProvider === 'paddle' ? ['https://*.paddle.com'] : [];
  const paddleFrames =
    config.paymentProvider === 'paddle' ? ['https://buy.paddle.com', 'https://sandbox-buy.paddle.com'] : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...ga, ...paddle, ...(options.dev ? ["'unsafe-inline'"] : [])],
    'style-src': ["'self'", ...(options.dev ? ["'unsafe-inline'"] : [])],
    'img-src': ["'self'", 'data:', 'https://i.ytimg.com', ...gaConnect, ...paddleConnect],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...gaConnect, ...paddleConnect, ...(options.dev ? ['ws:'] : [])],
    'frame-src': ["'self'", 'https://www.youtube-nocookie.com', ...paddleFrames],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'"],
    // Only over https: on plain http from another host it would blank the page.
    ...(config.secureCookies ? { 'upgrade-insecure-requests': [] } : {}),
  };
  return {
    'content-security-policy': Object.entries(directives)
      .map(([name, values]) => [name, ...values].join(' '))
      .join('; '),
    'x-content-type-options': 'nosniff',
    // A page's URL (a reset link's token, say) never reaches another site: they get the origin only.
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'SAMEORIGIN',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(config.secureCookies ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/**
 * The Cache-Control of an answer that sets none of its own (API answers, errors, redirects): kept by
 * no browser or proxy. The catalog's POST answers are never reused by caches anyway.
 */
export const DEFAULT_CACHE_CONTROL = 'no-store';

/**
 * The CSRF check, and the reply's `csrfToken()` for the page's initial data (app.ts sets the
 * security headers on every answer). The CSRF secret lives in its own long-lived cookie, not in the
 * sign-in session, so an expired session still reaches its route and gets its 401/403.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const csrf = csrfIssuer(config);
  await app.register(fastifyCsrf, {
    cookieKey: csrf.cookieName,
    cookieOpts: csrf.cookieOptions,
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
  });
  // A first visit's Set-Cookie, serialised once by the cookie plugin (with the attributes its
  // setCookie gives) around the place of the secret: a secret is base64url, which a cookie's value
  // takes as it is. Fastify adds it to any other Set-Cookie of the answer, as the plugin does.
  const [cookieBefore = '', cookieAfter = ''] = app
    .serializeCookie(csrf.cookieName, SECRET_MARK, csrf.cookieOptions)
    .split(SECRET_MARK);
  app.decorateReply('csrfToken', function csrfToken(this: FastifyReply): string {
    let secret = this.request.cookies[csrf.cookieName];
    if (!secret) {
      secret = csrf.newSecret();
      // The plugin finds the secret where it reads it, in the cookies.
      this.request.cookies[csrf.cookieName] = secret;
      this.header('set-cookie', cookieBefore + secret + cookieAfter);
    }
    return csrf.token(secret);
  });

  // Every state-changing call (and the routes that opt in, like GET /api/exit) needs the token.
  // Read-only POST calls of the spec (the catalog) and the payment webhook opt out. The check goes
  // on the routes that can need it only: the pages, files and reads answer without passing it.
  const check = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const setting = (request.routeOptions.config as { csrf?: boolean }).csrf;
    if (setting ?? UNSAFE_METHODS.has(request.method)) app.csrfProtection(request, reply, done);
    else done();
  };
  app.addHook('onRoute', (route) => {
    const setting = (route.config as { csrf?: boolean } | undefined)?.csrf;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!(setting ?? methods.some((method) => UNSAFE_METHODS.has(method)))) return;
    const own = route.onRequest ?? [];
    route.onRequest = [check, ...(Array.isArray(own) ? own : [own])];
  });
}

/** Where a new secret goes in its Set-Cookie, serialised once. */
const SECRET_MARK = 'csrf-secret-goes-here';

/** The length of @fastify/csrf's secrets (its `secretLength` default). */
const CSRF_SECRET_BYTES = 18;

/**
 * A visitor's CSRF secret (its own long-lived cookie) and the tokens made from it, for the page's
 * initial data. The tokens are @fastify/csrf's with the options the plugin is registered with (its
 * defaults), so the plugin's check accepts them. A visitor without the cookie gets a new secret (the
 * plugin's own length and encoding) cut from pooled random bytes, one fill for 256 visitors, where
 * the plugin would draw 18 fresh bytes for each first visit.
 */
export function csrfIssuer(config: Pick<Config, 'secureCookies' | 'basePath'>) {
  const cookies = shopCookies(config);
  const cookieOptions = { ...cookies.options, signed: false, maxAge: 60 * 60 * 24 * 365 };
  const tokens = Tokens({ userInfo: false }); // as the plugin makes its own (it also calls new)
  const secrets = randomPool(CSRF_SECRET_BYTES);
  return {
    cookieName: cookies.csrf,
    cookieOptions,
    newSecret: secrets,
    token: (secret: string) => csrfToken(tokens, secret),
  };
}

/** A CSRF secret of the plugin's alphabet (base64url): one @fastify/csrf hashes as it stands. */
const URL_SAFE = /^[\w-]+$/;
const SALT_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The token `tokens.create(secret)` makes (@fastify/csrf 8, no validity or user info): an 8-letter
 * salt, `-`, and the SHA-256 of `salt-secret` in base64url. Made with one `crypto.hash` call instead of
 * the library's `createHash` object, which cost a page answer about 5% of its CPU (perf).
 * The library's `verify` checks these tokens (security.test.ts). A secret outside base64url (a
 * cookie a client made up) goes to the library, which hashes it as ASCII.
 */
export function csrfToken(tokens: ReturnType<typeof Tokens>, secret: string): string {
  if (!URL_SAFE.test(secret)) return tokens.create(secret);
  let salt = '';
  for (let i = 0; i < 8; i++) salt += SALT_CHARS[(62 * Math.random()) | 0];
  return `${salt}-${hash('sha256', `${salt}-${secret}`, 'base64url')}`;
}

/**
 * `size` random bytes at a time (base64url), cut from a larger buffer that is filled again from
 * the system's generator once used up: every piece is used once.
 */
export function randomPool(size: number, pieces = 256): () => string {
  const pool = Buffer.alloc(size * pieces);
  let next = pieces;
  return () => {
    if (next === pieces) {
      randomFillSync(pool);
      next = 0;
    }
    const start = size * next++;
    return pool.toString('base64url', start, start + size);
  };
}

declare module 'fastify' {
  interface FastifyReply {
    /** This visitor's CSRF token for the page's initial data (a new secret cookie on a first visit). */
    csrfToken(): string;
  }
  interface FastifyContextConfig {
    /** true: this route needs X-CSRF-TOKEN even if its method is safe; false: it never does. */
    csrf?: boolean;
  }
}
