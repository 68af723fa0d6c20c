import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { AccountIdentity } from '../../../common/schemas/privacy.ts';
import type { Database, Reader } from '../../db/open.ts';
import {
  authChallenges,
  emailTokens,
  knownDevices,
  passkeys,
  recoveryCodes,
  sessions,
  users,
} from '../../db/schema/accounts.ts';
import { AppError } from '../../http/errors.ts';
import { hashSessionToken } from '../../http/session.ts';
import { emailChangeMail, emailChangeNoticeMail, emailTakenMail } from '../../integrations/mail/account-templates.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { deletedRows } from '../../lib/housekeeping.ts';
import { type AccountsDeps, signedInWithin } from './accounts.service.ts';
import { countPasskeys } from './passkeys.service.ts';
import { verifyPassword } from './passwords.ts';

/** The privacy rights on the accounts' side: export, deletion, e-mail change, and unverified accounts' end. */

const LINK_MINUTES = 60;
/** A Google-only account proves itself for deletion by a Google sign-in this recent. */
export const REAUTH_MINUTES = 10;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const lower = (email: string) => email.trim().toLowerCase();
type Tx = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

async function activeUser(db: Pick<Database, 'select'>, userId: number, lock = false) {
  const query = db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  const [user] = await (lock ? query.for('update') : query);
  if (!user) throw new AppError('unauthorized', 'Please sign in to continue.');
  return user;
}

const emailTaken = async (db: Pick<Database, 'select'>, email: string, exceptUserId: number) => {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${lower(email)} AND ${users.id} <> ${exceptUserId}`)
    .limit(1);
  return Boolean(row);
};

/** How this account proves it is its owner (the Profile tab's deletion form asks accordingly). */
export async function accountIdentity(db: Database, userId: number): Promise<AccountIdentity> {
  const user = await activeUser(db, userId);
  return {
    email: user.email,
    hasPassword: Boolean(user.passwordHash),
    google: Boolean(user.googleSub),
    passkeys: await countPasskeys(db, userId),
  };
}

/** The accounts' part of a data export: profile, sign-in methods (never a secret), sessions. */
export async function accountExport(db: Database, userId: number, currentSessionToken: string | undefined) {
  const user = await activeUser(db, userId);
  const current = currentSessionToken ? hashSessionToken(currentSessionToken) : '';
  const rows = await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(sessions.createdAt);
  // Passkeys by name and dates only: never a credential id or public key; devices as recorded.
  const [keys, devices] = await Promise.all([
    db
      .select({ name: passkeys.name, added_at: passkeys.createdAt, last_used_at: passkeys.lastUsedAt })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(passkeys.createdAt),
    db
      .select({ device: knownDevices.device, first_seen_at: knownDevices.createdAt })
      .from(knownDevices)
      .where(eq(knownDevices.userId, userId))
      .orderBy(knownDevices.createdAt),
  ]);
  return {
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      email_verified_at: user.emailVerifiedAt,
      created_at: user.createdAt,
    },
    sign_in_methods: {
      password: Boolean(user.passwordHash),
      google: user.googleSub ? { linked: true } : null,
      two_step: user.totpEnabledAt ? { turned_on_at: user.totpEnabledAt } : null,
      passkeys: keys,
    },
    known_devices: devices,
    sessions: rows.map((s) => ({
      device: s.userAgent,
      ip: s.ip,
      signed_in_with: s.method,
      signed_in_at: s.createdAt,
      last_seen_at: s.lastSeenAt,
      expires_at: s.expiresAt,
      remember_me: s.remember,
      this_browser: s.tokenHash === current,
    })),
  };
}

/**
 * Checks that the person deleting the account is its owner, holding the account's row locked for
 * the rest of the caller's transaction: a passkey the caller verified (`passkeyProven`), else the
 * password when the account has one (attempts counted as failed sign-ins are), else a Google
 * sign-in in the last REAUTH_MINUTES.
 */
export async function confirmAccountOwner(
  tx: Tx,
  deps: Pick<AccountsDeps, 'limiter' | 'config'>,
  userId: number,
  password: string | undefined,
  currentSessionToken: string | undefined,
  passkeyProven = false,
) {
  const user = await activeUser(tx, userId, true);
  if (passkeyProven) return user;
  if (user.passwordHash) {
    if (!password) throw new AppError('invalid_data', 'Enter your password to delete your account.');
    const key = `delete-account:${userId}`;
    await deps.limiter.consume(key, deps.config.limits.signInFailures, 'password attempts');
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new AppError('invalid_data', 'The password is not correct.');
    }
    await deps.limiter.reset(key);
    return user;
  }
  if (!(await signedInWithin(tx, userId, currentSessionToken, REAUTH_MINUTES)))
    throw new AppError('forbidden', 'Sign in with Google again to confirm that it is you.');
  return user;
}

/**
 * Ends the account: every session, e-mail link and sign-in method (passkeys, two-step secret and
 * recovery codes, known devices) goes, and the row stays only as the
 * pseudonymous buyer of its orders (accounting keeps sales): no name, no e-mail, no password, no
 * Google identity. Its address is free at once, so it can sign up again as a new account.
 */
export async function eraseAccount(tx: Tx, userId: number): Promise<void> {
  for (const table of [sessions, emailTokens, passkeys, recoveryCodes, authChallenges, knownDevices]) {
    await tx.delete(table).where(eq(table.userId, userId));
  }
  await tx
    .update(users)
    .set({
      name: 'Deleted account',
      email: `deleted-${userId}@deleted.invalid`,
      passwordHash: null,
      googleSub: null,
      totpSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
      deletedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
}

/**
 * Whether an address is reserved for an owner (the owner feature answers): owners are named by the
 * shop, so an account never moves to such an address, whoever holds its mailbox.
 */
export type OwnerAddressCheck = (db: Reader, email: string) => Promise<boolean>;

export const OWNER_ADDRESS_REFUSED =
  "This address is reserved for the shop's owners, who are named by the shop and cannot be claimed by an e-mail change. Choose another address.";

/**
 * Asks to move the account to a new address: a link to the new address (60 minutes, once) and a
 * notice to the current one. An address that belongs to another account gets a mail saying so and
 * no link, and the answer is the same, so it tells nothing about other accounts. An owner's
 * address is refused outright.
 */
export async function requestEmailChange(
  deps: AccountsDeps,
  userId: number,
  newEmail: string,
  isOwnerAddress: OwnerAddressCheck,
): Promise<string> {
  await deps.limiter.consume(`email-change:${userId}`, deps.config.limits.forgotPerEmail, 'e-mail change requests');
  await deps.db.transaction(async (tx) => {
    const user = await activeUser(tx, userId, true);
    if (lower(user.email) === lower(newEmail)) {
      throw new AppError('invalid_data', 'email: This is already your e-mail address.');
    }
    if (await isOwnerAddress(tx, newEmail)) throw new AppError('invalid_data', `email: ${OWNER_ADDRESS_REFUSED}`);
    await tx
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, 'email_change'), isNull(emailTokens.usedAt)));
    if (await emailTaken(tx, newEmail, userId)) {
      await enqueueMail(tx, emailTakenMail(deps.config, newEmail));
    } else {
      const token = randomBytes(32).toString('base64url');
      await tx.insert(emailTokens).values({
        userId,
        purpose: 'email_change',
        tokenHash: tokenHash(token),
        newEmail,
        expiresAt: sql`now() + make_interval(mins => ${LINK_MINUTES})`,
      });
      await enqueueMail(tx, emailChangeMail(deps.config, user, newEmail, token));
    }
    await enqueueMail(tx, emailChangeNoticeMail(deps.config, user, newEmail));
  });
  deps.mailQueued();
  return `We sent a confirmation link to ${newEmail}. Your address changes once you open it while signed in to this account and confirm (within 60 minutes).`;
}

export const EMAIL_CHANGE_FAILED =
  'This confirmation link is invalid, was already used or has expired. Ask for a new one in your Profile.';

export const EMAIL_CHANGE_OTHER_ACCOUNT =
  'This link belongs to a change asked for by another account. Sign out, then sign in to the account whose address is changing and open the link again.';

/**
 * Confirms the link: the account moves to the new address, which counts as verified. The token
 * proves the new mailbox, and the signed-in account (`userId`) must be the one that asked, so a
 * link opened by anyone else, or fetched by a mail scanner, changes nothing. A refusal leaves the
 * link unused, so its account can still confirm it.
 */
export async function confirmEmailChange(
  deps: AccountsDeps,
  userId: number,
  token: string,
  email: string,
  isOwnerAddress: OwnerAddressCheck,
): Promise<string> {
  const done = await deps.db.transaction(async (tx) => {
    // The account first, as a request locks it, so a confirmation and a new request queue up.
    await activeUser(tx, userId, true);
    const [link] = await tx
      .select({ id: emailTokens.id, userId: emailTokens.userId, newEmail: emailTokens.newEmail })
      .from(emailTokens)
      .where(
        and(
          eq(emailTokens.tokenHash, tokenHash(token)),
          eq(emailTokens.purpose, 'email_change'),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, sql`now()`),
          sql`lower(${emailTokens.newEmail}) = ${lower(email)}`,
        ),
      )
      .for('update');
    if (!link?.newEmail) return undefined;
    if (link.userId !== userId) throw new AppError('forbidden', EMAIL_CHANGE_OTHER_ACCOUNT);
    // The address may have become an owner's since the link was sent.
    if (await isOwnerAddress(tx, link.newEmail)) {
      throw new AppError(
        'conflict',
        "This address is now reserved for the shop's owners, so your address was not changed.",
      );
    }
    if (await emailTaken(tx, link.newEmail, link.userId)) {
      throw new AppError(
        'conflict',
        'This address already belongs to another account, so your address was not changed.',
      );
    }
    await tx.update(emailTokens).set({ usedAt: sql`now()` }).where(eq(emailTokens.id, link.id));
    const [moved] = await tx
      .update(users)
      .set({ email: link.newEmail, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(and(eq(users.id, link.userId), isNull(users.deletedAt)))
      .returning({ email: users.email });
    return moved?.email;
  });
  if (!done) throw new AppError('invalid_data', EMAIL_CHANGE_FAILED);
  return `Your e-mail address is now ${done}. Sign in with it from now on.`;
}

/**
 * Deletes accounts whose address was never verified within `days` (housekeeping runs it).
 * `keep(userId)` is an SQL condition true for accounts another feature still needs (orders).
 */
export async function sweepUnverifiedAccounts(db: Reader, days: number, keep: (userId: SQL) => SQL): Promise<number> {
  return deletedRows(
    await db.execute(sql`
      DELETE FROM users u
       WHERE u.email_verified_at IS NULL AND u.deleted_at IS NULL
         AND u.created_at < now() - make_interval(days => ${days})
         AND NOT ${keep(sql`u.id`)}`),
  );
}
