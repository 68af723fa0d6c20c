import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import type { Owner } from './owner.service.ts';

/** What the owner console's routes share: who is asking, list cursors, ids in paths, timestamps. */

/** The owner making the request, known once the owner scope's guard has passed. */
export type OwnerOf = (request: FastifyRequest) => Owner;

// ---- Cursors: the (time, id) of the last row seen, opaque to the browser -------------------------

/** `at` is the timestamp as PostgreSQL writes it (microseconds kept: a JS Date would lose them). */
const encodeCursor = (at: string, id: number) => Buffer.from(JSON.stringify([at, id])).toString('base64url');
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

export function decodeCursor(cursor: string | undefined): { at: string; id: number } | undefined {
  if (!cursor) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof at === 'string' && TIMESTAMP_TEXT.test(at) && Number.isSafeInteger(id) && (id as number) > 0)
      return { at, id: id as number };
  } catch {
    // answered below
  }
  throw new AppError('invalid_data', 'cursor: not a cursor this list gave out.');
}

export const nextCursor = <T extends { cursor_at: string; id: number }>(rows: T[], limit: number) => {
  const last = rows[rows.length - 1];
  return rows.length === limit && last ? encodeCursor(last.cursor_at, last.id) : null;
};

/**
 * A page from rows read with one more than its limit: the extra row only says that another page
 * exists, so "Load more" never leads to an empty page.
 */
export const pageOf = <T extends { cursor_at: string; id: number }>(rows: T[], limit: number) => {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next_cursor: rows.length > limit && last ? encodeCursor(last.cursor_at, last.id) : null };
};

export const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

export const idParam = (request: FastifyRequest, what: string) => {
  const raw = (request.params as { id: string }).id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('not_found', `No ${what} ${raw.slice(0, 40)}.`);
  return id;
};

/** A route's `preValidation`: a malformed id in the path is a 404 before the body is looked at. */
export const idParamFirst =
  (what: string) =>
  async (request: FastifyRequest): Promise<void> => {
    idParam(request, what);
  };
