import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Reader } from '../db/open.ts';
import { sessions, users } from '../db/schema/accounts.ts';
import { deletedRows } from '../lib/housekeeping.ts';
import { shopCookies } from './cookies.ts';
import { AppError } from './errors.ts';

const REMEMBER_DAYS = 30;
const ABSOLUTE_HOURS = 12;
const IDLE_HOURS = 2;

export type SessionUser = { id: number; name: string };
/** How a session was started (the sessions list shows it; a passkey's sessions end with it). */
export type SignInHow = { method?: 'password' | 'code' | 'passkey' | 'google' | 'link'; passkeyId?: number };

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Sessions live in the database: the cookie holds 256 random bits, the table their SHA-256.
 * "Remember Me" keeps a session 30 days; otherwise it ends after 2 idle hours or 12 hours.
 * `request.user()` resolves the signed-in user once per request, and only when asked.
 */
export function registerSession(app: FastifyInstance, db: Database, config: Config): void {
  const { session: SESSION_COOKIE, options: cookieBase } = shopCookies(config);

  app.decorateRequest('sessionToken', function (this: FastifyRequest): string | undefined {
    return this.cookies[SESSION_COOKIE];
  });
  app.decorateRequest('userPromise', null);
  app.decorateRequest('user', function (this: FastifyRequest): Promise<SessionUser | null> {
    this.userPromise ??= findUser(db, this.sessionToken());
    return this.userPromise;
  });

  const setSessionCookie = (reply: FastifyReply, token: string, remember: boolean, expiresAt?: Date) =>
    reply.setCookie(
      SESSION_COOKIE,
      token,
      remember
        ? {
            ...cookieBase,
            maxAge: expiresAt
              ? Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000))
              : REMEMBER_DAYS * 86_400,
          }
        : cookieBase,
    );

  app.decorateReply(
    'signIn',
    async function (this: FastifyReply, userId: number, remember: boolean, how: SignInHow = {}): Promise<void> {
      // A new id at every sign-in; the session the browser held before ends.
      const previous = this.request.sessionToken();
      if (previous) await db.delete(sessions).where(eq(sessions.tokenHash, hashSessionToken(previous)));
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + (remember ? REMEMBER_DAYS * 86_400_000 : ABSOLUTE_HOURS * 3_600_000));
      await db.insert(sessions).values({
        tokenHash: hashSessionToken(token),
        userId,
        expiresAt,
        remember,
        userAgent: this.request.headers['user-agent']?.slice(0, 512) ?? null,
        ip: this.request.ip,
        method: how.method ?? null,
        passkeyId: how.passkeyId ?? null,
        secondFactor: how.method === 'code' || how.method === 'passkey',
      });
      setSessionCookie(this, token, remember);
      this.request.userPromise = null;
    },
  );

  // A privilege change (two-step sign-in on or off, a new passkey) gives the session a new id:
  // whoever learnt the old one before the change holds nothing after it.
  app.decorateReply('rotateSession', async function (this: FastifyReply): Promise<void> {
    const previous = this.request.sessionToken();
    if (!previous) return;
    const token = randomBytes(32).toString('base64url');
    const [row] = await db
      .update(sessions)
      .set({ tokenHash: hashSessionToken(token) })
      .where(eq(sessions.tokenHash, hashSessionToken(previous)))
      .returning({ remember: sessions.remember, expiresAt: sessions.expiresAt });
    if (!row) return;
    this.request.cookies[SESSION_COOKIE] = token;
    setSessionCookie(this, token, row.remember, row.expiresAt);
  });

  app.decorateReply('signOut', async function (this: FastifyReply): Promise<void> {
    const token = this.request.sessionToken();
    if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashSessionToken(token)));
    this.clearCookie(SESSION_COOKIE, cookieBase);
    this.request.userPromise = Promise.resolve(null);
  });
}

/** Ends every session of a user except (optionally) the one this request holds. */
export async function endOtherSessions(
  db: Pick<Database, 'delete'>,
  userId: number,
  keepToken?: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepToken
        ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, hashSessionToken(keepToken)))
        : eq(sessions.userId, userId),
    );
}

/** Deletes sessions past their absolute or idle end (housekeeping runs it). */
export async function sweepEndedSessions(db: Reader): Promise<number> {
  return deletedRows(
    await db.execute(
      sql`DELETE FROM sessions WHERE expires_at <= now()
          OR (NOT remember AND last_seen_at <= now() - make_interval(hours => ${IDLE_HOURS}))`,
    ),
  );
}

async function findUser(db: Database, token: string | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = hashSessionToken(token);
  const [row] = await db
    .select({ id: users.id, name: users.name, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        gt(sessions.expiresAt, sql`now()`),
        or(eq(sessions.remember, true), gt(sessions.lastSeenAt, sql`now() - make_interval(hours => ${IDLE_HOURS})`)),
      ),
    )
    .limit(1);
  if (!row) return null;
  // Activity keeps an idle session alive; written at most once a minute.
  if (Date.now() - row.lastSeenAt.getTime() > 60_000) {
    void db
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.tokenHash, tokenHash))
      .catch(() => {});
  }
  return { id: row.id, name: row.name };
}

/** Guard: the signed-in user, or a 401. */
export async function requireUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await request.user();
  if (!user) throw new AppError('unauthorized', 'Please sign in to continue.');
  return user;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The session cookie's value, whatever the cookie is called on this shop (see shopCookies). */
    sessionToken(): string | undefined;
    userPromise: Promise<SessionUser | null> | null;
    user(): Promise<SessionUser | null>;
  }
  interface FastifyReply {
    signIn(userId: number, remember: boolean, how?: SignInHow): Promise<void>;
    /** A new token for the current session (same row, same end). */
    rotateSession(): Promise<void>;
    signOut(): Promise<void>;
  }
}
