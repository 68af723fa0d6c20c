import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/open.ts';
import { sessions, users } from '../db/schema/accounts.ts';
import { AppError } from './errors.ts';

export const SESSION_COOKIE = 'kitshop_session';

export type SessionUser = { id: number; name: string };

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * `request.user()` resolves the signed-in user from the session cookie, once per request and only
 * when asked (the catalog API never pays for it). The cookie holds a random token; the database
 * only its hash.
 */
export function registerSession(app: FastifyInstance, db: Database): void {
  app.decorateRequest('userPromise', null);
  app.decorateRequest('user', function (this: FastifyRequest): Promise<SessionUser | null> {
    this.userPromise ??= findUser(db, this.cookies[SESSION_COOKIE]);
    return this.userPromise;
  });
}

async function findUser(db: Database, token: string | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({ id: users.id, name: users.name })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashSessionToken(token)), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  return row ?? null;
}

/** Guard: the signed-in user, or a 401. */
export async function requireUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await request.user();
  if (!user) throw new AppError('unauthorized', 'Please sign in to continue.');
  return user;
}

declare module 'fastify' {
  interface FastifyRequest {
    userPromise: Promise<SessionUser | null> | null;
    user(): Promise<SessionUser | null>;
  }
}
