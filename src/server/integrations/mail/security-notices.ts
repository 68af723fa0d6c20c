import { SITE_NAME } from '../../../common/site.ts';
import { compose, type MailContext } from './templates.ts';

/**
 * Notices of changes to how an account signs in: each says what changed and when,
 * and what to do if it was not the account's owner. None carries a token.
 */
type To = { name: string; email: string };

const notice = (ctx: MailContext, to: To, subject: string, heading: string, lines: string[]) =>
  compose(
    to.email,
    subject,
    {
      heading,
      paragraphs: [
        `Hi ${to.name}, ${lines[0]}`,
        ...lines.slice(1),
        `If this was not you, reset your password right away, check the signed-in sessions in your Profile, and write to ${ctx.supportEmail}.`,
      ],
      action: { label: 'Review my account', url: `${ctx.publicUrl}/user-panel?tab=profile` },
    },
    ctx.supportEmail,
  );

export const passkeyAddedMail = (ctx: MailContext, to: To, passkeyName: string) =>
  notice(ctx, to, `A passkey was added to your ${SITE_NAME} account`, 'A new passkey', [
    `a passkey named "${passkeyName}" was added to your ${SITE_NAME} account. It can now sign in without the password.`,
  ]);

export const twoStepChangedMail = (ctx: MailContext, to: To, on: boolean) =>
  notice(
    ctx,
    to,
    `Two-step sign-in was turned ${on ? 'on' : 'off'} for your ${SITE_NAME} account`,
    `Two-step sign-in is ${on ? 'on' : 'off'}`,
    [
      on
        ? `two-step sign-in was turned on for your ${SITE_NAME} account: signing in with the password now also asks for a code from your authenticator app.`
        : `two-step sign-in was turned off for your ${SITE_NAME} account: the password alone signs in again.`,
      'Every other signed-in session was signed out.',
    ],
  );

export const newDeviceMail = (ctx: MailContext, to: To, sign: { device: string; ip: string; at: Date }) =>
  notice(ctx, to, `New sign-in to your ${SITE_NAME} account`, 'A sign-in from a new device', [
    `your ${SITE_NAME} account was signed in from a device it had not used before.`,
    `Device: ${sign.device}. Address: ${sign.ip}. Time: ${sign.at.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
  ]);
