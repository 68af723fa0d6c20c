import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
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

/**
 * A route's path parameters `{ id }` as its params schema: a positive whole number, or the 404
 * "No <what> <id>." (Fastify validates the path before the body, so a malformed id is a 404 even
 * with a bad body).
 */
export const idParams = (what: string) =>
  z.object({ id: z.string() }).transform(({ id }, ctx) => {
    if (/^\d{1,9}$/.test(id) && Number(id) > 0) return { id: Number(id) };
    ctx.addIssue({ code: 'custom', message: `No ${what} ${id.slice(0, 40)}.` });
    return z.NEVER;
  });
