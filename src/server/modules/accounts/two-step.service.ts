import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { TotpSetup } from '../../../common/schemas/account-security.ts';
import { SITE_NAME } from '../../../common/site.ts';
import type { Database, Reader } from '../../db/open.ts';
import { authChallenges, passkeys, recoveryCodes, sessions, users } from '../../db/schema/accounts.ts';
import { AppError } from '../../http/errors.ts';
import { ipKey } from '../../http/rate-limit.ts';
import { endOtherSessions, hashSessionToken } from '../../http/session.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { twoStepChangedMail } from '../../integrations/mail/security-notices.ts';
import { deletedRows } from '../../lib/housekeeping.ts';
import { createSecretBox } from '../../lib/secret-box.ts';
import type { AccountsDeps } from './accounts.service.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** A password sign-in waits this long for its code; a setup this long for its first code. */
const SECOND_STEP_MINUTES = 10;
const SETUP_MINUTES = 15;
/** TOTP (otplib) and the QR code of a setup are loaded by the first code or setup, not at start. */
const otp = () => import('otplib');
export const RECOVERY_CODE_COUNT = 10;
/** One 30-second step either side of now (clock drift), and never a step already used. */
const TOTP_TOLERANCE_SECONDS = 30;

export const TWO_STEP_MESSAGES = {
  askCode: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  badCode: 'This code is not right, was already used or has expired. Please try the current code.',
  expired: 'Your sign-in took too long. Please sign in again.',
  enabled: 'Two-step sign-in is on.',
  disabled: 'Two-step sign-in is off.',
  badPassword: 'The password is not right.',
} as const;

export type TwoStepDeps = AccountsDeps & { sessionSecret: string };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const box = (deps: TwoStepDeps) => createSecretBox(deps.sessionSecret, 'totp-secret');

/** Whether an account signs in with a second step (TOTP on). */
export async function hasTwoStep(db: Pick<Database, 'select'>, userId: number): Promise<boolean> {
  const [row] = await db.select({ on: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
  return Boolean(row?.on);
}

export const OWNER_SIGN_IN_CHANGE_MESSAGE =
  'An owner changes how the account signs in only from a session that signed in with a passkey or a two-step code. Please sign in with your passkey or code first.';
export const OWNER_LAST_FACTOR_MESSAGE =
  'This is the last passkey or two-step sign-in of a shop owner: add another passkey or turn on two-step sign-in before removing it.';

/** Whether an account has a passkey or two-step sign-in (owners of a production shop must). */
export async function hasStrongSignIn(db: Reader, userId: number): Promise<boolean> {
  const { rows } = await db.execute<{ strong: boolean }>(sql`
    SELECT (SELECT totp_enabled_at IS NOT NULL FROM ${users} WHERE id = ${userId})
        OR EXISTS (SELECT 1 FROM ${passkeys} WHERE user_id = ${userId}) AS strong`);
  return Boolean(rows[0]?.strong);
}

/**
 * How far this session may reach owner-only ground: `open` when it proved a second factor or a
 * passkey (or, outside production, when the account has neither to prove); `step_up` when the
 * account has a passkey or two-step sign-in but this session signed in without it (a password, a
 * Google account, an e-mail link); `setup` for a production owner without either. It asks how the
 * session signed in, not what the account has: a password alone never opens the console of an
 * account that has more.
 */
export async function ownerSessionGate(
  db: Reader,
  production: boolean,
  userId: number,
  sessionToken: string | undefined,
): Promise<'open' | 'step_up' | 'setup'> {
  const { rows } = await db.execute<{ proved: boolean | null; strong: boolean }>(sql`
    SELECT (SELECT second_factor FROM ${sessions}
             WHERE token_hash = ${hashSessionToken(sessionToken ?? '')} AND user_id = ${userId}) AS proved,
           (SELECT totp_enabled_at IS NOT NULL FROM ${users} WHERE id = ${userId})
             OR EXISTS (SELECT 1 FROM ${passkeys} WHERE user_id = ${userId}) AS strong`);
  const row = rows[0];
  if (row?.proved) return 'open';
  if (row?.strong) return 'step_up';
  return production ? 'setup' : 'open';
}

/** Marks the request's session as having proved a second factor (it just turned one on or added one). */
export async function markSecondFactor(db: Pick<Database, 'update'>, userId: number, sessionToken: string | undefined) {
  if (!sessionToken) return;
  await db
    .update(sessions)
    .set({ secondFactor: true })
    .where(and(eq(sessions.tokenHash, hashSessionToken(sessionToken)), eq(sessions.userId, userId)));
}

/**
 * Counts a code attempt before it is checked, as sign-in counts passwords: 50 in 10 minutes per
 * IP and 5 failures per account in 15 minutes. `succeeded` takes the attempt back.
 */
async function countCodeAttempt(deps: AccountsDeps, userId: number, ip: string) {
  const keys = [`code:ip:${ipKey(ip)}`, `code:user:${userId}`] as const;
  await deps.limiter.consume(keys[0], deps.config.limits.signInPerIp, 'failed code attempts');
  await deps.limiter.consume(keys[1], deps.config.limits.codeFailures, 'failed code attempts');
  return { succeeded: () => Promise.all(keys.map((key) => deps.limiter.giveBack(key))) };
}

/** A TOTP code checked against a secret: the time step it matched, or null. */
async function matchTotp(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const { verify } = await otp();
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Checks a TOTP code (once per time step) or uses up a recovery code; true when either worked. */
async function spendCode(deps: TwoStepDeps, userId: number, code: string): Promise<boolean> {
  const [user] = await deps.db
    .select({ secret: users.totpSecret, lastStep: users.totpLastStep })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.secret) return false;
  if (/^\d{6}$/.test(code)) {
    const secret = box(deps).open(user.secret);
    if (!secret) return false;
    const step = await matchTotp(secret, code, user.lastStep);
    if (step === null) return false;
    // Taken once: of two requests with one code, only the first moves the step on.
    const taken = await deps.db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return taken.length === 1;
  }
  // Recovery codes hold about 50 random bits, under the 112 that a plain hash would need
  // (ASVS 6.5.2): each is stored as an argon2id hash with its own salt and checked against the
  // unused ones (at most 10 verifies, through the hashing queue; the attempt was counted first).
  const candidates = await deps.db
    .select({ id: recoveryCodes.id, hash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const typed = normaliseRecoveryCode(code);
  if (typed.length !== 10) return false;
  for (const candidate of candidates) {
    if (!(await verifyPassword(candidate.hash, typed))) continue;
    const used = await deps.db
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.id, candidate.id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used.length === 1;
  }
  return false;
}

/** After a right password: the pending sign-in's token (for a cookie); no session exists yet. */
export async function startSecondStep(db: Database, userId: number, remember: boolean): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(authChallenges).values({
    key: `second-step:${sha256(token)}`,
    purpose: 'second-step',
    userId,
    remember,
    expiresAt: sql`now() + make_interval(mins => ${SECOND_STEP_MINUTES})`,
  });
  return token;
}

/** The second step: the pending sign-in's user once its code is right (the pending state is used up). */
export async function finishSecondStep(
  deps: TwoStepDeps,
  token: string | undefined,
  code: string,
  ip: string,
): Promise<{ userId: number; remember: boolean }> {
  const key = `second-step:${sha256(token ?? '')}`;
  const pending = token
    ? await deps.db
        .select({ userId: authChallenges.userId, remember: authChallenges.remember })
        .from(authChallenges)
        .where(and(eq(authChallenges.key, key), gt(authChallenges.expiresAt, sql`now()`)))
        .then((rows) => rows[0])
    : undefined;
  if (!pending?.userId) throw new AppError('unauthorized', TWO_STEP_MESSAGES.expired);
  const attempt = await countCodeAttempt(deps, pending.userId, ip);
  if (!(await spendCode(deps, pending.userId, code))) throw new AppError('invalid_data', TWO_STEP_MESSAGES.badCode);
  await attempt.succeeded();
  const done = await deps.db.delete(authChallenges).where(eq(authChallenges.key, key)).returning();
  if (done.length === 0) throw new AppError('unauthorized', TWO_STEP_MESSAGES.expired);
  return { userId: pending.userId, remember: pending.remember };
}

/** A new secret for the account, shown once as text and QR code; on only once a code confirms it. */
export async function startTotpSetup(deps: TwoStepDeps, user: { id: number; email: string }): Promise<TotpSetup> {
  if (await hasTwoStep(deps.db, user.id)) throw new AppError('conflict', 'Two-step sign-in is already on.');
  const [{ generateSecret, generateURI }, { default: QRCode }] = await Promise.all([otp(), import('qrcode')]);
  const secret = generateSecret();
  const row = {
    purpose: 'totp-setup' as const,
    userId: user.id,
    payload: box(deps).seal(secret),
    expiresAt: sql`now() + make_interval(mins => ${SETUP_MINUTES})`,
  };
  await deps.db
    .insert(authChallenges)
    .values({ key: `totp-setup:${user.id}`, ...row })
    .onConflictDoUpdate({ target: authChallenges.key, set: { ...row, createdAt: sql`now()` } });
  const uri = generateURI({ issuer: SITE_NAME, label: user.email, secret });
  const qr = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 200 });
  return { secret, uri, qr };
}

/** Ten fresh one-time codes and their argon2id hashes (stored by `storeRecoveryCodes`), shown once. */
async function newRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  const hashes = await Promise.all(codes.map((code) => hashPassword(normaliseRecoveryCode(code))));
  return { codes, hashes };
}

/** Replaces the account's recovery codes (the older ones stop working). */
async function storeRecoveryCodes(tx: Pick<Database, 'delete' | 'insert'>, userId: number, hashes: string[]) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/**
 * The first right code turns two-step sign-in on: the secret is stored sealed, ten recovery codes
 * are issued, every other session ends and the account is mailed.
 */
export async function confirmTotpSetup(
  deps: TwoStepDeps,
  userId: number,
  code: string,
  ip: string,
  currentToken: string | undefined,
): Promise<string[]> {
  const [setup] = await deps.db
    .select({ payload: authChallenges.payload })
    .from(authChallenges)
    .where(and(eq(authChallenges.key, `totp-setup:${userId}`), gt(authChallenges.expiresAt, sql`now()`)));
  const secret = setup ? box(deps).open(setup.payload) : null;
  if (!secret) throw new AppError('invalid_data', 'The setup has expired. Please start again.');
  const attempt = await countCodeAttempt(deps, userId, ip);
  const step = await matchTotp(secret, code, null);
  if (step === null) throw new AppError('invalid_data', TWO_STEP_MESSAGES.badCode);
  await attempt.succeeded();
  const { codes, hashes } = await newRecoveryCodes();
  await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ totpSecret: box(deps).seal(secret), totpEnabledAt: sql`now()`, totpLastStep: step })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
      .returning({ name: users.name, email: users.email });
    if (!user) throw new AppError('conflict', 'Two-step sign-in is already on.');
    await tx.delete(authChallenges).where(eq(authChallenges.key, `totp-setup:${userId}`));
    await storeRecoveryCodes(tx, userId, hashes);
    await endOtherSessions(tx, userId, currentToken);
    await enqueueMail(tx, twoStepChangedMail(deps.config, user, true));
  });
  deps.mailQueued();
  return codes;
}

/** Turns two-step sign-in off once the password (or a passkey, checked by the caller) proves the person. */
export async function disableTwoStep(
  deps: TwoStepDeps,
  userId: number,
  proof: { password: string } | { passkeyVerified: true },
  ip: string,
  currentToken: string | undefined,
  keepLastFactor = false,
): Promise<void> {
  if ('password' in proof) {
    const [account] = await deps.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
    const attempt = await countCodeAttempt(deps, userId, ip);
    if (!(await verifyPassword(account?.hash ?? null, proof.password))) {
      throw new AppError('invalid_data', TWO_STEP_MESSAGES.badPassword);
    }
    await attempt.succeeded();
  }
  await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
      .where(and(eq(users.id, userId), sql`${users.totpEnabledAt} IS NOT NULL`))
      .returning({ name: users.name, email: users.email });
    if (!user) throw new AppError('conflict', 'Two-step sign-in is already off.');
    // The UPDATE holds the account row, so a passkey removal at the same moment waits and then sees this.
    if (
      keepLastFactor &&
      !(await tx.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1)).length
    ) {
      throw new AppError('conflict', OWNER_LAST_FACTOR_MESSAGE);
    }
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await endOtherSessions(tx, userId, currentToken);
    await enqueueMail(tx, twoStepChangedMail(deps.config, user, false));
  });
  deps.mailQueued();
}

/** Unused recovery codes left. */
export async function recoveryCodesLeft(db: Pick<Database, 'select'>, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/** Deletes expired WebAuthn challenges, pending second steps and setups (housekeeping runs it). */
export async function sweepExpiredChallenges(db: Reader): Promise<number> {
  return deletedRows(await db.execute(sql`DELETE FROM auth_challenges WHERE expires_at <= now()`));
}
