import { createHash, createHmac } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { AccountPasskey } from '../../../common/schemas/account-security.ts';
import { SITE_NAME } from '../../../common/site.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { authChallenges, passkeys, users } from '../../db/schema/accounts.ts';
import { AppError } from '../../http/errors.ts';
import { ipKey } from '../../http/rate-limit.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { passkeyAddedMail } from '../../integrations/mail/security-notices.ts';
import { OWNER_LAST_FACTOR_MESSAGE, type TwoStepDeps } from './two-step.service.ts';

/** A ceremony's challenge lives 5 minutes and is used once, whatever the outcome. */
const CHALLENGE_MINUTES = 5;
const MAX_PASSKEYS = 20;

/**
 * The WebAuthn library and its certificate parsers (hundreds of modules) are loaded by the first
 * passkey ceremony, not at start: most processes never see one.
 */
const webauthn = () => import('@simplewebauthn/server');
const webauthnHelpers = () => import('@simplewebauthn/server/helpers');

export const PASSKEY_MESSAGES = {
  failed: 'The passkey could not be verified. Please try again.',
  unknown: 'This passkey is not registered with this shop. Sign in with your password, or use another passkey.',
  added: 'Passkey added.',
  removed: 'Passkey removed.',
} as const;

/** Relying party id and origin come from PUBLIC_URL. */
function relyingParty(config: Pick<Config, 'publicUrl'>) {
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const challengeKey = (challenge: string) => `webauthn:${createHash('sha256').update(challenge).digest('hex')}`;

async function storeChallenge(
  db: Database,
  challenge: string,
  purpose: 'passkey-register' | 'passkey-sign-in',
  userId: number | null,
) {
  await db.insert(authChallenges).values({
    key: challengeKey(challenge),
    purpose,
    userId,
    expiresAt: sql`now() + make_interval(mins => ${CHALLENGE_MINUTES})`,
  });
}

/** Uses a challenge up: true only for a live one of this purpose (and user), once. */
function takeChallenge(db: Database, purpose: 'passkey-register' | 'passkey-sign-in', userId?: number) {
  return async (challenge: string) => {
    const taken = await db
      .delete(authChallenges)
      .where(
        and(
          eq(authChallenges.key, challengeKey(challenge)),
          eq(authChallenges.purpose, purpose),
          gt(authChallenges.expiresAt, sql`now()`),
          ...(userId !== undefined ? [eq(authChallenges.userId, userId)] : []),
        ),
      )
      .returning({ key: authChallenges.key });
    return taken.length === 1;
  };
}

/** The WebAuthn user handle: stable per account, and no account id or e-mail in it. */
const userHandle = (deps: TwoStepDeps, userId: number) =>
  new Uint8Array(createHmac('sha256', deps.sessionSecret).update(`webauthn-user:${userId}`).digest());

export async function listPasskeys(db: Pick<Database, 'select'>, userId: number): Promise<AccountPasskey[]> {
  const rows = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function passkeyRegistrationOptions(
  deps: TwoStepDeps,
  user: { id: number; name: string; email: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await deps.db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS)
    throw new AppError('conflict', `An account holds at most ${MAX_PASSKEYS} passkeys.`);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: SITE_NAME,
    rpID: relyingParty(deps.config).rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: userHandle(deps, user.id),
    attestationType: 'none',
    timeout: CHALLENGE_MINUTES * 60_000,
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(deps.db, options.challenge, 'passkey-register', user.id);
  return options;
}

/** Checks the browser's registration answer against its challenge and stores the passkey. */
export async function registerPasskey(
  deps: TwoStepDeps,
  userId: number,
  name: string,
  response: unknown,
): Promise<AccountPasskey> {
  const { rpID, origin } = relyingParty(deps.config);
  let info: VerifiedRegistrationResponse['registrationInfo'];
  const { verifyRegistrationResponse } = await webauthn();
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: takeChallenge(deps.db, 'passkey-register', userId),
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    info = result.verified ? result.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw new AppError('invalid_data', PASSKEY_MESSAGES.failed);
  const { credential } = info;
  const { isoBase64URL } = await webauthnHelpers();
  const added = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
        backedUp: info.credentialBackedUp,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('conflict', 'This passkey is already registered.');
    const [user] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
    if (user) await enqueueMail(tx, passkeyAddedMail(deps.config, user, name));
    return row;
  });
  deps.mailQueued();
  return { id: added.id, name: added.name, created_at: added.createdAt.toISOString(), last_used_at: null };
}

/** Options for a discoverable-credential sign-in (no e-mail asked); counted per IP. */
export async function passkeySignInOptions(
  deps: TwoStepDeps,
  ip: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await deps.limiter.consume(
    `passkey-options:ip:${ipKey(ip)}`,
    deps.config.limits.passkeyOptionsPerIp,
    'passkey sign-in attempts',
  );
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).rpID,
    userVerification: 'required',
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await storeChallenge(deps.db, options.challenge, 'passkey-sign-in', null);
  return options;
}

/**
 * Checks a passkey's signed answer: its challenge (live, unused), origin, relying party, user
 * verification, signature and counter. The account (and, with `forUser`, only that account's
 * passkeys) on success. Failures are counted per IP like failed sign-ins.
 */
export async function verifyPasskey(
  deps: TwoStepDeps,
  response: unknown,
  ip: string,
  forUser?: number,
): Promise<{ user: { id: number; name: string }; passkeyId: number }> {
  const ipCounter = `signin:ip:${ipKey(ip)}`;
  await deps.limiter.consume(ipCounter, deps.config.limits.signInPerIp, 'failed sign-in attempts');
  const credentialId = (response as { id?: unknown }).id;
  const [found] =
    typeof credentialId === 'string'
      ? await deps.db
          .select({ passkey: passkeys, name: users.name, verified: users.emailVerifiedAt })
          .from(passkeys)
          .innerJoin(users, eq(users.id, passkeys.userId))
          .where(eq(passkeys.credentialId, credentialId))
      : [];
  if (!found || (forUser !== undefined && found.passkey.userId !== forUser)) {
    throw new AppError('invalid_data', PASSKEY_MESSAGES.unknown);
  }
  const { rpID, origin } = relyingParty(deps.config);
  let newCounter: number | undefined;
  const [{ verifyAuthenticationResponse }, { isoBase64URL }] = await Promise.all([webauthn(), webauthnHelpers()]);
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: takeChallenge(deps.db, 'passkey-sign-in'),
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: {
        id: found.passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(found.passkey.publicKey),
        counter: found.passkey.counter,
        transports: found.passkey.transports as AuthenticatorTransport[],
      },
    });
    if (result.verified) newCounter = result.authenticationInfo.newCounter;
  } catch {
    newCounter = undefined;
  }
  if (newCounter === undefined) throw new AppError('invalid_data', PASSKEY_MESSAGES.failed);
  await deps.db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: sql`now()` })
    .where(eq(passkeys.id, found.passkey.id));
  await deps.limiter.giveBack(ipCounter);
  return { user: { id: found.passkey.userId, name: found.name }, passkeyId: found.passkey.id };
}

/** Removes one of the account's passkeys; the sessions it started end with it (foreign key). */
/**
 * Removes one of the account's passkeys. With `keepLastFactor` (a production shop's owner) the last
 * passkey of an account without two-step sign-in stays: the account row is locked first, so two
 * removals at once (or a removal beside turning two-step sign-in off) take turns and cannot both
 * pass that check.
 */
export async function removePasskey(
  db: Database,
  userId: number,
  passkeyId: number,
  options: { keepLastFactor?: boolean } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    const [account] = await tx
      .select({ twoStep: users.totpEnabledAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    const removed = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    if (removed.length === 0) throw new AppError('not_found', 'This passkey was already removed.');
    if (options.keepLastFactor && !account?.twoStep && (await countPasskeys(tx, userId)) === 0) {
      throw new AppError('conflict', OWNER_LAST_FACTOR_MESSAGE);
    }
  });
}

export async function countPasskeys(db: Pick<Database, 'select'>, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

type AuthenticatorTransport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';
