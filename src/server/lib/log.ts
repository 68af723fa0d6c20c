import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import pg from 'pg';
import pino, { type Bindings, type ChildLoggerOptions } from 'pino';

/** Routes whose query string is a credential (a single-use token, an OAuth code) with an address. */
const SECRET_QUERY_ROUTES = [
  '/email/verify',
  '/email/change',
  '/reset-password',
  '/newsletter/unsubscribe',
  '/google/callback',
  '/github/callback',
];

/**
 * A request URL fit for the log: a token route, or any query with a `...token` parameter, loses its
 * query; a `query` parameter (a search's text) loses its value.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const path = url.slice(0, q);
  const secret =
    SECRET_QUERY_ROUTES.some((route) => path.endsWith(route) || path.endsWith(`${route}/`)) ||
    /(?:^|&)[^=&]*token[^=&]*=/i.test(url.slice(q + 1));
  if (secret) return `${path}?[redacted]`;
  // A search's text (the owner console looks customers up by e-mail or name) is personal data.
  return url.replace(/([?&]query=)[^&]*/g, '$1[redacted]');
}

/** Fastify's own request fields, with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** An error of the same class with only the given own properties. */
function copyError(error: Error, properties: Record<string, unknown>): Error {
  const copy = Object.create(Object.getPrototypeOf(error)) as Error;
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined) continue;
    const enumerable = !['message', 'stack', 'cause'].includes(key);
    Object.defineProperty(copy, key, { value, enumerable, writable: true, configurable: true });
  }
  return copy;
}

/** A stack with its first line (the message, which may hold values) replaced. */
const restack = (stack: string | undefined, head: string) =>
  [head, ...(stack ?? '').split('\n').filter((line) => /^\s+at /.test(line))].join('\n');

/**
 * PostgreSQL's error without the parts that quote data: `detail` ("Key (email)=(...) already
 * exists"), `where`, and for data exceptions (class 22) the quoted input in the message.
 */
function databaseFields(error: pg.DatabaseError) {
  const message = error.code?.startsWith('22')
    ? error.message.replace(/".*"/s, '"…"').replace(/0x[0-9a-f]{2}(?: 0x[0-9a-f]{2})*/gi, '0x…')
    : error.message;
  const { code, severity, schema, table, column, dataType, constraint } = error;
  return { message, code, severity, schema, table, column, dataType, constraint };
}

/**
 * Errors as logged: a failed query keeps its statement and PostgreSQL's error, never its
 * parameters (names, e-mails), which Drizzle puts into the message and a `params` field.
 */
function withoutValues(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 8) return error;
  if (error instanceof DrizzleQueryError) {
    const cause = error.cause instanceof pg.DatabaseError ? databaseFields(error.cause) : {};
    const message = `Failed query: ${error.query}`;
    return copyError(error, {
      ...cause,
      message,
      stack: restack(error.stack, `DrizzleQueryError: ${message}`),
      query: error.query,
      cause: withoutValues(error.cause, depth + 1),
    });
  }
  if (error instanceof pg.DatabaseError) {
    const fields = databaseFields(error);
    return copyError(error, { ...fields, stack: restack(error.stack, `${error.name}: ${fields.message}`) });
  }
  const cause = withoutValues(error.cause, depth + 1);
  if (cause === error.cause) return error;
  const copy = copyError(error, {});
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  copy.cause = cause;
  return copy;
}

/** pino's serializers for the server's logger (Fastify's request log uses them too). */
export const logSerializers = {
  req: serializeRequest,
  err: (error: unknown) => pino.stdSerializers.err(withoutValues(error) as Error),
};

/**
 * pino's logMethod hook: `log.error(queryError)` and Fastify's `log.error({err}, err.message)`
 * would make the failed query's message, parameters included, the log line's `msg`.
 */
export function withoutQueryValuesInMessage(this: pino.Logger, args: Parameters<pino.LogFn>, method: pino.LogFn): void {
  const [first, message] = args as [unknown, unknown, ...unknown[]];
  const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
  if (error instanceof DrizzleQueryError && (message === undefined || message === error.message)) {
    const object = first instanceof Error ? { err: first } : first;
    method.apply(this, [object, `Failed query: ${error.query}`, ...args.slice(2)]);
    return;
  }
  method.apply(this, args);
}

/**
 * Fastify's request log as one line per request, written when the answer has gone: `request
 * completed` (or `request errored`, at error level) with the request as `req` (method, redacted URL,
 * host, client address), the answer's status as `res` and the time taken, under the request's
 * `reqId`. Fastify's own controller writes two (`incoming request`, then the status), which doubles
 * what logging costs a request. Its other lines (a 503 while closing, a stream that failed) stay.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const { log } = reply;
    if (error) log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** pino's level values; a logger writes a line at its level and above. */
const LEVEL_VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Each request's logger (Fastify's `childLoggerFactory`), whose pino child is made when the request
 * first logs a line its level lets through. pino's `child` writes the bindings (the request id) as
 * JSON when it is called, and Fastify asks for one per request: below the level of most requests'
 * lines (`warn`, say, where a request logs only when it fails) that was work for nothing. The lines
 * themselves are the child's, as before.
 */
export function requestLogger(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}

class RequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  /** The lowest level value written while no child is made: the route's level, or the parent's. */
  readonly #lowest: number;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
    this.#lowest = LEVEL_VALUES[options.level ?? parent.level] ?? 0;
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === undefined && LEVEL_VALUES[level]! < this.#lowest) return;
    const child = this.#logger();
    (child[level] as (...args: unknown[]) => void).apply(child, args);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}
}
