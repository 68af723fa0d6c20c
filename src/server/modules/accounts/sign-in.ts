import type { FastifyReply, FastifyRequest } from 'fastify';
import { shopCookies } from '../../http/cookies.ts';
import type { SignInHow } from '../../http/session.ts';
import { findOwner } from '../owner/owner.service.ts';
import type { AccountsDeps } from './accounts.service.ts';
import { noteSignInDevice } from './sessions.service.ts';
import { hasStrongSignIn, ownerSessionGate, startSecondStep, type TwoStepDeps } from './two-step.service.ts';

const SECOND_STEP_SECONDS = 600;

/** The user as the browser gets it: `owner: true` added for a shop owner (the Admin menu item). */
export async function withOwnerFlag<T extends { id: number }>(
  deps: AccountsDeps,
  user: T,
): Promise<T | (T & { owner: true })> {
  return (await findOwner(deps.db, deps.config, user.id)) ? { ...user, owner: true } : user;
}

/**
 * Whether this owner must add a passkey or two-step sign-in first: on a production shop, an owner
 * without either reaches no owner screen or call until one is set up.
 */
export async function ownerSetupRequired(deps: AccountsDeps, userId: number): Promise<boolean> {
  if (!deps.config.production) return false;
  if (!(await findOwner(deps.db, deps.config, userId))) return false;
  return !(await hasStrongSignIn(deps.db, userId));
}

/**
 * Whether this session must sign in again with a passkey or a code before owner-only ground: the
 * account has one of them, and this session signed in without it.
 */
export async function ownerStepUpRequired(
  deps: Pick<AccountsDeps, 'db' | 'config'>,
  userId: number,
  sessionToken: string | undefined,
): Promise<boolean> {
  return (await ownerSessionGate(deps.db, deps.config.production, userId, sessionToken)) === 'step_up';
}

/** A signed-in answer: `{user, message}`, plus `setup_required` for an owner who must add a second factor. */
export async function signedInAnswer(deps: AccountsDeps, user: { id: number; name: string }, message: string) {
  const answer = { user: await withOwnerFlag(deps, user), message };
  return (await ownerSetupRequired(deps, user.id)) ? { ...answer, setup_required: true } : answer;
}

/**
 * Starts a session (a new id: the one the browser held ends) and remembers the device; a device
 * the account has not signed in from before is mailed to its owner.
 */
export async function startSession(
  deps: AccountsDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  remember: boolean,
  how: SignInHow,
): Promise<void> {
  await reply.signIn(userId, remember, how);
  const mailed = await noteSignInDevice(deps.db, deps.config, userId, {
    userAgent: request.headers['user-agent'],
    ip: request.ip,
  });
  if (mailed) deps.mailQueued();
  // The security log of a sign-in: who, how and whether from a new device (the request line beside
  // it has the address and time). A failed attempt is its request line: the call and its 4xx.
  request.log.info({ userId, signIn: how.method ?? 'password', newDevice: mailed }, 'signed in');
}

/** A right password for an account with two-step sign-in: no session yet, a cookie for the code step. */
export async function askSecondStep(reply: FastifyReply, deps: TwoStepDeps, userId: number, remember: boolean) {
  const token = await startSecondStep(deps.db, userId, remember);
  const { signIn, options } = shopCookies(deps.config);
  reply.setCookie(signIn, token, { ...options, maxAge: SECOND_STEP_SECONDS });
}

export function pendingSignInToken(request: FastifyRequest, deps: AccountsDeps): string | undefined {
  return request.cookies[shopCookies(deps.config).signIn];
}

export function clearPendingSignIn(reply: FastifyReply, deps: AccountsDeps): void {
  const { signIn, options } = shopCookies(deps.config);
  reply.clearCookie(signIn, options);
}
