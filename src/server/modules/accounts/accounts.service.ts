import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  ChangePasswordSchema,
  LoginSchema,
  RegisterSchema,
  ResetPasswordSchema,
} from '../../../common/schemas/accounts.ts';
import type { Config } from '../../config.ts';
import { type Database, isUniqueViolation, type Reader } from '../../db/open.ts';
import { emailTokens, sessions, users } from '../../db/schema/accounts.ts';
import { AppError } from '../../http/errors.ts';
import { ipKey, type RateLimiter } from '../../http/rate-limit.ts';
import { endOtherSessions, hashSessionToken } from '../../http/session.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import {
  passwordChangedMail,
  resetPasswordMail,
  signInPausedMail,
  signUpAttemptMail,
  verificationMail,
} from '../../integrations/mail/templates.ts';
import { deletedRows } from '../../lib/housekeeping.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  isCommonPassword,
  isPersonalPassword,
  PERSONAL_PASSWORD_MESSAGE,
  verifyPassword,
} from './passwords.ts';

const TOKEN_MINUTES = 60;
/** How long after signing in a session may change the password. */
const RECENT_SIGN_IN_MINUTES = 15;

export const MESSAGES = {
  registered:
    'Registration successful! Please check your email and click the activation link to activate your account.',
  badCredentials: 'These credentials do not match our records.',
  notVerified:
    'Your email address is not verified yet. We have sent you a new activation link; please check your inbox (and the spam folder).',
  notVerifiedRecent: 'Your email address is not verified yet. Please use the activation link we sent you a moment ago.',
  loggedIn: 'Login Successfull',
  verified: 'Your email address has been verified and you are now signed in.',
  verifiedWhileSignedIn: (email: string) =>
    `${email} is now verified. You are still signed in to your own account: to use the verified one, sign out and sign in with that address.`,
  verifyFailed: 'This activation link is invalid, was already used or has expired. Sign in to receive a new one.',
  resetSent: 'A reset link has been sent.',
  resetFailed: 'This reset link is invalid, was already used or has expired. Please request a new one.',
  passwordUpdated: 'Password updated. You can now log in.',
  passwordChanged: 'Password changed successfully.',
  signInAgain: 'For your security, please sign in again to change your password.',
} as const;

export type AccountsDeps = { db: Database; config: Config; limiter: RateLimiter; mailQueued: () => void };

const normaliseEmail = (email: string) => email.trim().toLowerCase();
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The 10,000 common passwords, and any holding the account's e-mail local part or name. */
function refuseWeakPassword(password: string, account?: { email: string; name: string }) {
  if (isCommonPassword(password)) throw new AppError('invalid_data', `password: ${COMMON_PASSWORD_MESSAGE}`);
  if (account && isPersonalPassword(password, account)) {
    throw new AppError('invalid_data', `password: ${PERSONAL_PASSWORD_MESSAGE}`);
  }
}

async function findUserByEmail(db: Pick<Database, 'select'>, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normaliseEmail(email)}`)
    .limit(1);
  return user;
}

/** A fresh single-use token for a user; older unused ones of the same purpose stop working. */
async function issueToken(tx: Pick<Database, 'insert' | 'update'>, userId: number, purpose: 'verify' | 'reset') {
  await tx
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
  const token = randomBytes(32).toString('base64url');
  await tx.insert(emailTokens).values({
    userId,
    purpose,
    tokenHash: tokenHash(token),
    expiresAt: sql`now() + make_interval(mins => ${TOKEN_MINUTES})`,
  });
  return token;
}

const liveToken = (userId: number, token: string, purpose: 'verify' | 'reset') =>
  and(
    eq(emailTokens.tokenHash, tokenHash(token)),
    eq(emailTokens.userId, userId),
    eq(emailTokens.purpose, purpose),
    isNull(emailTokens.usedAt),
    gt(emailTokens.expiresAt, sql`now()`),
  );

/** The account whose token would be accepted now (without using it up), or undefined. */
async function liveTokenOwner(db: Database, email: string, token: string, purpose: 'verify' | 'reset') {
  const user = await findUserByEmail(db, email);
  if (!user) return undefined;
  const [row] = await db
    .select({ id: emailTokens.id })
    .from(emailTokens)
    .where(liveToken(user.id, token, purpose))
    .limit(1);
  return row ? user : undefined;
}

/** Marks a matching, unused, unexpired token used; answers its user or undefined. */
async function consumeToken(
  tx: Pick<Database, 'select' | 'update'>,
  email: string,
  token: string,
  purpose: 'verify' | 'reset',
) {
  const user = await findUserByEmail(tx, email);
  if (!user) return undefined;
  const [row] = await tx
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(liveToken(user.id, token, purpose))
    .returning({ id: emailTokens.id });
  return row ? user : undefined;
}

/**
 * Signs up. A registered address gets the very answer a new one gets, after the same password
 * hash, so neither the answer nor its time tells whether the address has an account; its owner
 * is mailed instead (someone tried to sign up with it).
 */
export async function register(
  deps: AccountsDeps,
  input: z.output<typeof RegisterSchema>,
  ip: string,
): Promise<string> {
  const { db, config, limiter } = deps;
  await limiter.consume(`register:ip:${ipKey(ip)}`, config.limits.registerPerIp, 'sign-up attempts');
  await limiter.consume(
    `register:email:${normaliseEmail(input.email)}`,
    config.limits.registerPerEmail,
    'sign-up attempts',
  );
  refuseWeakPassword(input.password, input);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    // The insert itself tells a registered address (case-insensitive unique index) from a new one.
    const [created] = await tx
      .insert(users)
      .values({ name: input.name, email: input.email, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (created) {
      const token = await issueToken(tx, created.id, 'verify');
      await enqueueMail(tx, verificationMail(config, { name: input.name, email: input.email }, token));
      return;
    }
    const owner = await findUserByEmail(tx, input.email);
    if (owner) await enqueueMail(tx, signUpAttemptMail(config, owner));
  });
  deps.mailQueued();
  return MESSAGES.registered;
}

/**
 * Checks the credentials. Every attempt is counted before its password is checked, one atomic
 * upsert per counter, so parallel attempts cannot slip past a limit; an attempt that succeeds (or
 * that a busy server never checked) is taken back, so the counters count failures:
 * - 50 in 10 minutes per IP (an IPv6 /64), checked first, so one address trying ever new
 *   e-mails makes no more than 100 counter rows;
 * - 5 a minute per e-mail and IP;
 * - 20 in 15 minutes per e-mail from anywhere, which pauses password sign-in for the account
 *   until the window ends; its owner is mailed a reset link that lifts the pause at once.
 * Unknown e-mails are counted and answered alike, so the limits tell nothing about accounts.
 */
export async function authenticate(deps: AccountsDeps, input: z.output<typeof LoginSchema>, ip: string, log: Log) {
  const { db, config, limiter } = deps;
  const { signInPerIp, signInFailures, signInPerAccount } = config.limits;
  const email = normaliseEmail(input.email);
  const keys = { ip: `signin:ip:${ipKey(ip)}`, emailAndIp: `signin:${email}:${ipKey(ip)}`, account: accountKey(email) };
  await limiter.consume(keys.ip, signInPerIp, 'failed sign-in attempts');
  await limiter.consume(keys.emailAndIp, signInFailures, 'failed sign-in attempts');
  const account = await limiter.count(keys.account, signInPerAccount);
  if (account.count > signInPerAccount.max) {
    // The one attempt that crossed the limit mails the owner (beside the answer: same timing).
    if (account.count === signInPerAccount.max + 1) mailSignInPaused(deps, email, account.retryAfter, log);
    throw limiter.tooMany(account.retryAfter, 'failed sign-in attempts');
  }
  const takeBack = () => Promise.all(Object.values(keys).map((key) => limiter.giveBack(key)));
  const user = await findUserByEmail(db, email);
  let matches: boolean;
  try {
    matches = await verifyPassword(user?.passwordHash ?? null, input.password);
  } catch (error) {
    await takeBack();
    throw error;
  }
  if (!matches || !user) throw new AppError('invalid_data', MESSAGES.badCredentials);
  // Signed in: this address's failures from here are forgiven (the shared counters only lose this attempt).
  await Promise.all([limiter.giveBack(keys.ip), limiter.reset(keys.emailAndIp), limiter.giveBack(keys.account)]);
  if (!user.emailVerifiedAt) {
    // A fresh activation link, at most one a minute.
    const [latest] = await db
      .select({ createdAt: emailTokens.createdAt })
      .from(emailTokens)
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, 'verify')))
      .orderBy(desc(emailTokens.createdAt))
      .limit(1);
    if (latest && Date.now() - latest.createdAt.getTime() < config.limits.verificationResendSeconds * 1000) {
      throw new AppError('forbidden', MESSAGES.notVerifiedRecent);
    }
    await db.transaction(async (tx) => {
      const token = await issueToken(tx, user.id, 'verify');
      await enqueueMail(tx, verificationMail(config, user, token));
    });
    deps.mailQueued();
    throw new AppError('forbidden', MESSAGES.notVerified);
  }
  return { id: user.id, name: user.name };
}

const accountKey = (email: string) => `signin:account:${normaliseEmail(email)}`;

function mailSignInPaused(deps: AccountsDeps, email: string, seconds: number, log: Log) {
  runBesideAnswer(
    async () => {
      const user = await findUserByEmail(deps.db, email);
      if (!user) return;
      await deps.db.transaction(async (tx) => {
        const token = await issueToken(tx, user.id, 'reset');
        await enqueueMail(tx, signInPausedMail(deps.config, user, token, Math.ceil(seconds / 60)));
      });
      deps.mailQueued();
    },
    log,
    'sign-in paused mail not queued',
  );
}

/**
 * Consumes a verification link. The visitor is to be signed in as the account unless the browser
 * is signed in to another one: a link opened there (perhaps an attacker's, for their own account)
 * verifies the address but must not swap the visitor's session for that account (login CSRF).
 */
export async function verifyEmail(deps: AccountsDeps, email: string, token: string, signedInAs: number | undefined) {
  const user = await deps.db.transaction(async (tx) => {
    const user = await consumeToken(tx, email, token, 'verify');
    if (!user) return undefined;
    await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, user.id));
    return user;
  });
  if (!user) return undefined;
  const signIn = signedInAs === undefined || signedInAs === user.id;
  return {
    user: { id: user.id, name: user.name },
    signIn,
    message: signIn ? MESSAGES.verified : MESSAGES.verifiedWhileSignedIn(user.email),
  };
}

type Log = { error: (details: object, message: string) => void };

/** Work an answer does not wait for; closing the app (and a test's mail delivery) waits for it. */
const besideAnswers = new Set<Promise<void>>();

export async function workBesideAnswersDone(): Promise<void> {
  await Promise.all([...besideAnswers]);
}

function runBesideAnswer(work: () => Promise<void>, log: Log, failure: string): void {
  const running: Promise<void> = work()
    .catch((error: unknown) => log.error({ err: error }, failure))
    .finally(() => besideAnswers.delete(running));
  besideAnswers.add(running);
}

/**
 * Always the same answer, in the same time, whether or not the address has an account: the
 * answer waits only for the rate limits; the lookup, the link and its mail run beside it.
 */
export async function requestPasswordReset(deps: AccountsDeps, email: string, ip: string, log: Log): Promise<string> {
  const { db, config, limiter } = deps;
  await limiter.consume(`forgot:ip:${ipKey(ip)}`, config.limits.forgotPerIp, 'reset requests');
  await limiter.consume(`forgot:email:${normaliseEmail(email)}`, config.limits.forgotPerEmail, 'reset requests');
  runBesideAnswer(
    async () => {
      const user = await findUserByEmail(db, email);
      if (!user) return;
      await db.transaction(async (tx) => {
        const token = await issueToken(tx, user.id, 'reset');
        await enqueueMail(tx, resetPasswordMail(config, user, token));
      });
      deps.mailQueued();
    },
    log,
    'password reset link not queued',
  );
  return MESSAGES.resetSent;
}

/**
 * The link is checked before the new password is hashed, so a flood of made-up links costs a
 * lookup each, not a hash; the link is used up only once the hash is done (a busy server's 429
 * leaves it working).
 */
export async function resetPassword(
  deps: AccountsDeps,
  input: z.output<typeof ResetPasswordSchema>,
  ip: string,
): Promise<string> {
  await deps.limiter.consume(`reset:ip:${ipKey(ip)}`, deps.config.limits.resetPerIp, 'password reset attempts');
  refuseWeakPassword(input.password);
  const owner = await liveTokenOwner(deps.db, input.email, input.token, 'reset');
  if (!owner) throw new AppError('invalid_data', MESSAGES.resetFailed);
  refuseWeakPassword(input.password, owner);
  const passwordHash = await hashPassword(input.password);
  const done = await deps.db.transaction(async (tx) => {
    const user = await consumeToken(tx, input.email, input.token, 'reset');
    if (!user) return false;
    // The link proved the address, so it counts as verified too.
    await tx
      .update(users)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, user.id));
    await voidResetTokens(tx, user.id);
    await endOtherSessions(tx, user.id);
    await enqueueMail(tx, passwordChangedMail(deps.config, user));
    return true;
  });
  if (!done) throw new AppError('invalid_data', MESSAGES.resetFailed);
  // A new password lifts a pause of password sign-in (the pause mail carries a reset link).
  await deps.limiter.reset(accountKey(input.email));
  deps.mailQueued();
  return MESSAGES.passwordUpdated;
}

/**
 * A session signed in within the last 15 minutes, else 403 with `message`: what stands in for
 * asking the password again before a change to how the account signs in.
 */
export async function requireRecentSignIn(
  db: Pick<Database, 'select'>,
  userId: number,
  currentSessionToken: string | undefined,
  message: string,
): Promise<void> {
  if (!(await signedInWithin(db, userId, currentSessionToken, RECENT_SIGN_IN_MINUTES))) {
    throw new AppError('forbidden', message);
  }
}

/**
 * The spec's form asks no current password, so a recent sign-in stands in for it: a session
 * left open (or taken) hours ago cannot change the password; a fresh sign-in can.
 */
export async function changePassword(
  deps: AccountsDeps,
  userId: number,
  input: z.output<typeof ChangePasswordSchema>,
  currentSessionToken: string | undefined,
): Promise<string> {
  await requireRecentSignIn(deps.db, userId, currentSessionToken, MESSAGES.signInAgain);
  const [account] = await deps.db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  refuseWeakPassword(input.password, account);
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning();
    if (!user) throw new AppError('unauthorized', 'Please sign in to continue.');
    await voidResetTokens(tx, userId);
    await endOtherSessions(tx, userId, currentSessionToken);
    await enqueueMail(tx, passwordChangedMail(deps.config, user));
  });
  deps.mailQueued();
  return MESSAGES.passwordChanged;
}

/** Whether the request's session (its token) belongs to the user and began in the last `minutes`. */
export async function signedInWithin(
  db: Pick<Database, 'select'>,
  userId: number,
  sessionToken: string | undefined,
  minutes: number,
): Promise<boolean> {
  if (!sessionToken) return false;
  const [recent] = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, hashSessionToken(sessionToken)),
        eq(sessions.userId, userId),
        gt(sessions.createdAt, sql`now() - make_interval(mins => ${minutes})`),
      ),
    )
    .limit(1);
  return Boolean(recent);
}

/** Deletes e-mail links that can no longer be used: used, voided or expired (housekeeping runs it). */
export async function sweepSpentLinks(db: Reader): Promise<number> {
  return deletedRows(await db.execute(sql`DELETE FROM email_tokens WHERE used_at IS NOT NULL OR expires_at <= now()`));
}

async function voidResetTokens(tx: Pick<Database, 'update'>, userId: number) {
  await tx
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, 'reset'), isNull(emailTokens.usedAt)));
}

export type GoogleOutcome = { user: { id: number; name: string } } | { refused: 'unverified' };

/**
 * A Google identity becomes a user: found by its `sub`; else, when Google vouches for the e-mail,
 * the account with that e-mail (see below) or a new account. An e-mail Google has not verified
 * never creates or joins an account: anyone can put any address on a Google account.
 */
export async function signInWithGoogle(deps: AccountsDeps, identity: GoogleIdentity): Promise<GoogleOutcome> {
  try {
    return await googleSignInOnce(deps, identity);
  } catch (error) {
    // The same new Google account signing in twice at once (two tabs, a double click): the other
    // sign-in created the account first, so this one finds it on its second try.
    if (!isUniqueViolation(error)) throw error;
    return googleSignInOnce(deps, identity);
  }
}

type GoogleIdentity = { sub: string; email?: string; emailVerified: boolean; name?: string };

function googleSignInOnce(deps: AccountsDeps, identity: GoogleIdentity): Promise<GoogleOutcome> {
  return deps.db.transaction(async (tx) => {
    const [known] = await tx.select().from(users).where(eq(users.googleSub, identity.sub)).limit(1);
    if (known) return { user: { id: known.id, name: known.name } };
    if (!identity.email || !identity.emailVerified) return { refused: 'unverified' as const };
    const googleName = identity.name?.trim();
    const existing = await findUserByEmail(tx, identity.email);
    if (existing?.emailVerifiedAt) {
      // Its owner proved the address before: the Google identity joins the account as it is.
      await tx.update(users).set({ googleSub: identity.sub }).where(eq(users.id, existing.id));
      return { user: { id: existing.id, name: existing.name } };
    }
    if (existing) {
      // Nobody ever proved this address, and Google just did: whoever signed up with it may not
      // own it. The account passes to the Google identity as a reset link would pass it on: the
      // unproven password, every session and every open link end, so nothing the sign-up set
      // keeps working.
      const [taken] = await tx
        .update(users)
        .set({
          googleSub: identity.sub,
          passwordHash: null,
          emailVerifiedAt: sql`now()`,
          ...(googleName ? { name: googleName } : {}),
        })
        .where(eq(users.id, existing.id))
        .returning({ id: users.id, name: users.name });
      await endOtherSessions(tx, existing.id);
      await tx
        .update(emailTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(emailTokens.userId, existing.id), isNull(emailTokens.usedAt)));
      return { user: taken! };
    }
    const [created] = await tx
      .insert(users)
      .values({
        name: googleName || identity.email.split('@')[0]!,
        email: identity.email,
        googleSub: identity.sub,
        emailVerifiedAt: sql`now()`,
      })
      .returning({ id: users.id, name: users.name });
    return { user: created! };
  });
}

export type Contact = { name: string; email: string };

/** Names and addresses of these users, for mail another feature sends them. */
export async function findContacts(db: Pick<Database, 'select'>, userIds: number[]): Promise<Contact[]> {
  if (userIds.length === 0) return [];
  return db.select({ name: users.name, email: users.email }).from(users).where(inArray(users.id, userIds));
}

/** A user's address (the checkout shows it), or null for a user that is gone. */
export async function findEmail(db: Pick<Database, 'select'>, userId: number): Promise<string | null> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email ?? null;
}

/**
 * A user's name and address as a JSON object (a `Contact`), to embed in a caller's statement (the
 * user id column as argument), so a caller that locks rows reads its buyer in the same round trip.
 */
export const contactSql = (userId: SQL): SQL =>
  sql`(SELECT json_build_object('name', u.name, 'email', u.email) FROM ${users} u WHERE u.id = ${userId})`;

/**
 * The addresses of these users (a relation of user ids), as a relation `(email)` to embed in a
 * caller's statement; deleted accounts have none.
 */
export const mailableAddressesSql = (userIds: SQL): SQL =>
  sql`SELECT u.email FROM ${users} u WHERE u.id IN (${userIds}) AND u.deleted_at IS NULL`;
