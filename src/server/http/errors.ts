import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** The shop's error vocabulary; each kind has one HTTP status. */
const STATUS = {
  invalid_data: 422,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  csrf: 419,
  too_many_requests: 429,
} as const;

export type ErrorKind = keyof typeof STATUS;

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = STATUS[kind];
  }
}

/** A Zod schema's refusal as the shop's error: the first bad field named, then its message. */
export function inputError(error: z.ZodError, kind: ErrorKind = 'invalid_data'): AppError {
  const issue = error.issues[0];
  const field = issue?.path.join('.');
  return new AppError(
    kind,
    issue?.message && field ? `${field}: ${issue.message}` : (issue?.message ?? 'Invalid input.'),
  );
}

/**
 * Parses with a Zod schema what a route's schema does not: the fields of a multipart upload (read
 * as they stream in), and a body that must be read only after a lookup has answered 404 or 403.
 * Failure is a 422 naming the first bad field. Otherwise a request's body, query and path
 * parameters are route schemas (`http/route-schemas.ts`).
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  kind: ErrorKind = 'invalid_data',
): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw inputError(parsed.error, kind);
}

export const CSRF_MESSAGE = 'Your session token is missing or expired. Reload the page and try again.';

/**
 * One error handler: expected failures answer `{message}` with their status; anything else is
 * logged with its request and answers a plain 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: Partial<FastifyError> & Error, request, reply) => {
    if (error.code?.startsWith('FST_CSRF')) {
      return reply.status(419).send({ message: CSRF_MESSAGE });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
    }
    if (error.validation) {
      return reply.status(400).send({ message: error.message });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ message: 'Send JSON (Content-Type: application/json).' });
    }
    return reply.status(status).send({ message: error.message });
  });
}

/** What Fastify answers itself, before any route or hook runs: a URL it cannot decode, an over-long path part. */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: 'That address is not valid.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'That address is too long.' },
};

/**
 * Fastify's `frameworkErrors`: these answers skip the hooks, so they get the security headers
 * here, and the shop's `{message}` rather than Fastify's echo of the URL.
 */
export function frameworkErrorHandler(headers: Record<string, string>) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const known = FRAMEWORK_ERRORS[error.code];
    reply
      .headers(headers)
      .header('cache-control', 'no-store')
      .status(known?.status ?? 400)
      .send({ message: known?.message ?? 'That request is not valid.' });
  };
}

/**
 * Fastify's `clientErrorHandler`, for what Node rejects before a request exists (unparsable HTTP,
 * headers over 16 KB, a request that did not arrive within the timeout): a `{message}` answer with
 * the security headers, written straight to the socket, which is then closed.
 */
export function clientErrorHandler(headers: Record<string, string>) {
  const headerLines = Object.entries({ ...headers, 'cache-control': 'no-store' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return function (this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, reason, message] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large', 'The address or the request headers are too long.']
          : [400, 'Bad Request', 'That request is not valid HTTP.'];
    this.log.debug({ err: error }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify({ message });
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\n${headerLines}content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
