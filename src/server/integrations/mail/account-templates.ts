import { SITE_NAME } from '../../../common/site.ts';
import { compose, type MailContext } from './templates.ts';

type Person = { name: string; email: string };

/** The link that moves an account to a new address: sent to that address, valid 60 minutes, once. */
export function emailChangeMail(ctx: MailContext, to: Person, newEmail: string, token: string) {
  const url = `${ctx.publicUrl}/email/change?token=${encodeURIComponent(token)}&email=${encodeURIComponent(newEmail)}`;
  return compose(
    newEmail,
    `Confirm your new ${SITE_NAME} e-mail address`,
    {
      heading: `Confirm ${newEmail}`,
      paragraphs: [
        `${to.name}, you asked to sign in to ${SITE_NAME} with ${newEmail} from now on instead of your current address.`,
        `Nothing changes until you open this link while signed in to your ${SITE_NAME} account and confirm the change there. It works once and expires in 60 minutes.`,
      ],
      action: { label: 'Confirm my new address', url },
      footer: 'If you did not ask for this, ignore this mail: your account stays as it is.',
    },
    ctx.supportEmail,
  );
}

/** To the current address when a change is asked for: who may not have asked can act. */
export function emailChangeNoticeMail(ctx: MailContext, to: Person, newEmail: string) {
  return compose(
    to.email,
    `Your ${SITE_NAME} e-mail address is about to change`,
    {
      heading: 'A change of e-mail address was requested',
      paragraphs: [
        `Someone signed in to your ${SITE_NAME} account asked to move it to ${newEmail}. A confirmation link went to that address; the change happens only once it is confirmed from your signed-in account, and then this address no longer signs in.`,
        'If this was not you, change your password now and tell us: the link then stays unused and expires in 60 minutes.',
      ],
      action: { label: 'Reset my password', url: `${ctx.publicUrl}/forgot-password` },
    },
    ctx.supportEmail,
  );
}

/** To a new address that already has an account: no link, so no account can take another's address. */
export function emailTakenMail(ctx: MailContext, newEmail: string) {
  return compose(
    newEmail,
    `Your address was offered for another ${SITE_NAME} account`,
    {
      heading: 'This address already has an account',
      paragraphs: [
        `Someone asked to move another ${SITE_NAME} account to ${newEmail}, which already belongs to an account, so nothing was changed.`,
        'If it was you, sign in with this address instead, or delete one of the accounts first.',
      ],
    },
    ctx.supportEmail,
  );
}

/** To the old address after deletion: what went, and what the law makes the shop keep. */
export function accountDeletedMail(ctx: MailContext, to: Person) {
  return compose(
    to.email,
    `Your ${SITE_NAME} account has been deleted`,
    {
      heading: `Goodbye, ${to.name}`,
      paragraphs: [
        `Your ${SITE_NAME} account has been deleted as you asked: your profile, sign-in methods, sessions, kits and download history, contact messages and newsletter subscription are gone.`,
        'Tax and accounting law makes us keep the record of your orders (amounts, kits and dates) for the legal period; it is no longer linked to your name or e-mail address.',
        `You can sign up again with ${to.email} at any time; it will be a new, empty account.`,
      ],
      footer: 'You received this because the account with this address was deleted.',
    },
    ctx.supportEmail,
  );
}
