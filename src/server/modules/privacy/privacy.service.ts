import { ANALYTICS_CONSENT_MONTHS } from '../../../common/constants.ts';
import type { Config } from '../../config.ts';
import type { Reader } from '../../db/open.ts';
import { accountDeletedMail } from '../../integrations/mail/account-templates.ts';
import { enqueueMail, forgetRecipient } from '../../integrations/mail/outbox.ts';
import type { Chore } from '../../lib/housekeeping.ts';
import {
  accountExport,
  confirmEmailChange as confirmAccountEmailChange,
  confirmAccountOwner,
  eraseAccount,
  requestEmailChange,
  sweepUnverifiedAccounts,
} from '../accounts/accounts.privacy.service.ts';
import { verifyPasskey } from '../accounts/passkeys.service.ts';
import type { TwoStepDeps } from '../accounts/two-step.service.ts';
import { githubExport } from '../github/github.privacy.service.ts';
import { disconnectGithub } from '../github/github.service.ts';
import { forgetLibraryUser, libraryExport, sweepOldDownloads } from '../library/library.privacy.service.ts';
import { licenceExport } from '../licences/licences.privacy.service.ts';
import {
  forgetSender,
  messagesExport,
  sweepOldMessageIps,
  sweepOldMessages,
} from '../messages/messages.privacy.service.ts';
import { forgetRedemptionMailboxes, hasOrdersSql, ordersExport } from '../orders/orders.privacy.service.ts';
import { isOwnerEmail } from '../owner/owner.service.ts';

/**
 * The rights the privacy policy promises, composed from each feature's own part: access and
 * portability (one JSON file) and erasure. This feature owns no table.
 */

/** `githubQueued`: nudges the GitHub worker after repository revokes were queued (when GitHub is configured). */
export type PrivacyDeps = TwoStepDeps & { githubQueued?: () => void };

/** Everything the shop holds about the account, as one JSON document (never a password or token). */
export async function exportAccountData(deps: PrivacyDeps, userId: number, sessionToken: string | undefined) {
  const account = await accountExport(deps.db, userId, sessionToken);
  const [orders, library, licences, messages, github] = await Promise.all([
    ordersExport(deps.db, userId),
    libraryExport(deps.db, userId),
    licenceExport(deps.db, userId),
    messagesExport(deps.db, account.profile.email),
    githubExport(deps.db, userId),
  ]);
  return {
    exported_at: new Date().toISOString(),
    shop: deps.config.publicUrl,
    ...account,
    orders,
    kits_owned: library.kits.filter((kit) => kit.revoked_at === null),
    kits_held_before: library.kits.filter((kit) => kit.revoked_at !== null),
    kit_grants: library.grants,
    downloads: library.downloads,
    licences,
    github,
    contact_messages: messages.contact_messages,
    newsletter: messages.newsletter,
    consents: {
      newsletter: messages.newsletter
        ? { given_at: messages.newsletter.subscribed_at, withdrawn_at: messages.newsletter.unsubscribed_at }
        : null,
      analytics: `Kept only in your browser (local storage) for ${ANALYTICS_CONSENT_MONTHS} months, never on our server; change it with Cookie Settings.`,
    },
  };
}

/**
 * Deletes the account in one transaction, once its owner is proven: sessions, sign-in methods,
 * profile, kits and download logs, repository access (revokes queued for its GitHub account),
 * contact messages, the newsletter subscription and the mails to its address go; the orders stay, pseudonymised, for accounting. A goodbye mail goes to the old
 * address.
 */
export async function deleteAccount(
  deps: PrivacyDeps,
  userId: number,
  proof: { password?: string; passkey?: unknown; ip: string },
  sessionToken: string | undefined,
): Promise<void> {
  // A passkey answer is checked first (it uses up its challenge), and only this account's passkeys count.
  const passkeyProven =
    proof.passkey !== undefined && (await verifyPasskey(deps, proof.passkey, proof.ip, userId)).user.id === userId;
  const revokesQueued = await deps.db.transaction(async (tx) => {
    const user = await confirmAccountOwner(tx, deps, userId, proof.password, sessionToken, passkeyProven);
    // The connected GitHub account loses every kit repository (revoke jobs that outlive the account).
    const githubConnected = await disconnectGithub(tx, userId);
    await forgetLibraryUser(tx, userId);
    await forgetSender(tx, user.email);
    await forgetRecipient(tx, user.email);
    await forgetRedemptionMailboxes(tx, userId);
    await eraseAccount(tx, userId);
    await enqueueMail(tx, accountDeletedMail(deps.config, user));
    return githubConnected;
  });
  deps.mailQueued();
  if (revokesQueued) deps.githubQueued?.();
}

/** An owner's address, from OWNER_EMAILS or the owners table: no e-mail change may take it. */
const ownerAddress = (config: Config) => (db: Reader, email: string) => isOwnerEmail(db, config, email);

/** Asks to move the account to a new address (never an owner's): the link goes there. */
export const changeEmail = (deps: PrivacyDeps, userId: number, newEmail: string) =>
  requestEmailChange(deps, userId, newEmail, ownerAddress(deps.config));

/** The signed-in account confirms the mailed link; an owner's address is refused here too. */
export const confirmEmailChange = (deps: PrivacyDeps, userId: number, token: string, email: string) =>
  confirmAccountEmailChange(deps, userId, token, email, ownerAddress(deps.config));

/**
 * The retention limits as housekeeping chores (one source for the numbers: `config.retentionDays`,
 * which the privacy policy states): contact messages after MESSAGE_RETENTION_DAYS, download logs
 * and IP addresses after 180 days, accounts never verified after 30 days (unless they have orders).
 */
export function retentionChores(days: Config['retentionDays']): Chore[] {
  return [
    { name: 'old contact messages', run: (db) => sweepOldMessages(db, days.contactMessages) },
    { name: 'old IP addresses of contact messages', run: (db) => sweepOldMessageIps(db, days.downloadLogsAndIps) },
    { name: 'old download logs', run: (db) => sweepOldDownloads(db, days.downloadLogsAndIps) },
    {
      name: 'unverified accounts',
      run: (db) => sweepUnverifiedAccounts(db, days.unverifiedAccounts, hasOrdersSql),
    },
  ];
}
