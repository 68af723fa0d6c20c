import type { FastifyError, FastifyInstance } from 'fastify';
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

/** Parses input with a Zod schema; failure is a 422 naming the first bad field. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  kind: ErrorKind = 'invalid_data',
): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.');
  throw new AppError(
    kind,
    issue?.message && field ? `${field}: ${issue.message}` : (issue?.message ?? 'Invalid input.'),
  );
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
