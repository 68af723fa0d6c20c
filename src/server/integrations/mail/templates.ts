import { SITE_NAME } from '../../../common/site.ts';
import { escapeHtml } from '../../lib/escape.ts';
import type { OutgoingMail } from './mailer.ts';

type Link = { label: string; url: string };
/**
 * `action` is the mail's button; `more` a second, plainer link below it. A mail without `heading`
 * starts with its first paragraph (an owner's reply that greets the reader itself).
 */
type Parts = { heading?: string; paragraphs: string[]; action?: Link; more?: Link; footer?: string };

/** One mail layout (other template files use it too): an HTML part (inline styles, as mail clients need) and a plain-text part. */
export function compose(
  to: string,
  subject: string,
  parts: Parts,
  supportEmail: string,
): OutgoingMail & { link?: string } {
  const footer = parts.footer ?? `Questions? Write to ${supportEmail}.`;
  const text = [
    ...(parts.heading ? [parts.heading, ''] : []),
    ...parts.paragraphs.flatMap((p) => [p, '']),
    ...[parts.action, parts.more].flatMap((link) => (link ? [`${link.label}: ${link.url}`, ''] : [])),
    '--',
    `${SITE_NAME} · ${footer}`,
  ].join('\n');
  const button = parts.action
    ? `<p style="margin:28px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#4f46e5;color:#fff;text-decoration:none;padding:12px 22px;border-radius:8px;font-weight:600;display:inline-block">${escapeHtml(parts.action.label)}</a></p>
<p style="color:#64748b;font-size:13px">If the button does not work, paste this link into your browser:<br><a href="${escapeHtml(parts.action.url)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(parts.action.url)}</a></p>`
    : '';
  const more = parts.more
    ? `<p style="line-height:1.6;margin:0 0 14px">${escapeHtml(parts.more.label)}: <a href="${escapeHtml(parts.more.url)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(parts.more.url)}</a></p>`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head><body style="margin:0;background:#f1f5f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1e293b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#fff;border-radius:12px;padding:32px">
<tr><td><p style="font-weight:800;font-size:20px;margin:0 0 24px;color:#0f172a">${SITE_NAME}</p>
${parts.heading ? `<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(parts.heading)}</h1>` : ''}
${parts.paragraphs.map((p) => `<p style="line-height:1.6;margin:0 0 14px">${escapeHtml(p)}</p>`).join('\n')}
${button}
${more}
<p style="color:#94a3b8;font-size:12px;margin-top:32px">${escapeHtml(footer)}</p></td></tr></table></td></tr></table></body></html>`;
  return { to, subject, text, html, link: parts.action?.url };
}

/** What every mail needs from the configuration (the Config itself will do). */
export type MailContext = { publicUrl: string; supportEmail: string };

export function verificationMail(ctx: MailContext, to: { name: string; email: string }, token: string) {
  const url = `${ctx.publicUrl}/email/verify?token=${encodeURIComponent(token)}&email=${encodeURIComponent(to.email)}`;
  return compose(
    to.email,
    `Activate your ${SITE_NAME} account`,
    {
      heading: `Welcome, ${to.name}!`,
      paragraphs: [
        `Please confirm that ${to.email} is your e-mail address to activate your ${SITE_NAME} account.`,
        'The link works once and expires in 60 minutes.',
      ],
      action: { label: 'Activate my account', url },
      footer: `You received this because someone signed up with this address. If it was not you, ignore this mail.`,
    },
    ctx.supportEmail,
  );
}

export function resetPasswordMail(ctx: MailContext, to: { name: string; email: string }, token: string) {
  const url = `${ctx.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(to.email)}`;
  return compose(
    to.email,
    `Reset your ${SITE_NAME} password`,
    {
      heading: 'Reset your password',
      paragraphs: [
        `Hi ${to.name}, we received a request to reset the password of your ${SITE_NAME} account.`,
        'The link works once and expires in 60 minutes. If you did not ask for it, ignore this mail: your password stays as it is.',
      ],
      action: { label: 'Choose a new password', url },
    },
    ctx.supportEmail,
  );
}

/**
 * To the owner of an account whose sign-in is paused after many failed attempts from anywhere:
 * the pause ends by itself; the reset link (a fresh one) lifts it at once.
 */
export function signInPausedMail(
  ctx: MailContext,
  to: { name: string; email: string },
  token: string,
  minutes: number,
) {
  const url = `${ctx.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(to.email)}`;
  return compose(
    to.email,
    `Sign-in to your ${SITE_NAME} account is paused`,
    {
      heading: 'Too many wrong passwords',
      paragraphs: [
        `Hi ${to.name}, someone tried many wrong passwords for your ${SITE_NAME} account, so signing in with a password is paused for ${minutes} minutes. Your password still works after that.`,
        'To sign in sooner, choose a new password with this link: it lifts the pause at once. It works once and expires in 60 minutes.',
        'If it was not you, your account is safe: nobody signed in. A long password used nowhere else keeps it that way.',
      ],
      action: { label: 'Choose a new password and sign in', url },
    },
    ctx.supportEmail,
  );
}

export function passwordChangedMail(ctx: MailContext, to: { name: string; email: string }) {
  return compose(
    to.email,
    `Your ${SITE_NAME} password was changed`,
    {
      heading: 'Your password was changed',
      paragraphs: [
        `Hi ${to.name}, the password of your ${SITE_NAME} account was just changed, and every other signed-in session was signed out.`,
        `If you did not do this, reset your password right away and write to ${ctx.supportEmail}.`,
      ],
      action: { label: 'Reset my password', url: `${ctx.publicUrl}/forgot-password` },
    },
    ctx.supportEmail,
  );
}

/**
 * Someone signed up with an address that has an account: the sign-up's answer does not say so
 * (that would tell anyone which addresses have accounts), this mail tells the owner.
 */
export function signUpAttemptMail(ctx: MailContext, to: { name: string; email: string }) {
  return compose(
    to.email,
    `Someone tried to sign up with your ${SITE_NAME} address`,
    {
      heading: 'You already have an account',
      paragraphs: [
        `Hi ${to.name}, someone just tried to create a new ${SITE_NAME} account with ${to.email}. This address already has an account, so no new one was made and your account is unchanged.`,
        'If it was you, sign in to your account. Forgot your password? Choose a new one with the second link.',
        'If it was not you, you can ignore this mail.',
      ],
      action: { label: 'Sign in', url: `${ctx.publicUrl}/login` },
      more: { label: 'Reset my password', url: `${ctx.publicUrl}/forgot-password` },
    },
    ctx.supportEmail,
  );
}

export function orderConfirmationMail(
  ctx: MailContext,
  to: { name: string; email: string },
  order: { publicId: string; items: { title: string; priceCents: number }[]; totalCents: number },
) {
  const usd = (cents: number) => `USD ${(cents / 100).toFixed(2)}`;
  return compose(
    to.email,
    `Your ${SITE_NAME} order ${order.publicId}`,
    {
      heading: 'Thank you for your order!',
      paragraphs: [
        `Hi ${to.name}, your payment went through and your kits are ready in your user panel: downloads, documentation and setup guides.`,
        `Order ${order.publicId}:`,
        ...order.items.map((item) => `• ${item.title}: ${usd(item.priceCents)}`),
        `Total before tax: ${usd(order.totalCents)}. Your receipt with tax details comes from our payment provider.`,
      ],
      action: { label: 'Open my user panel', url: `${ctx.publicUrl}/user-panel` },
    },
    ctx.supportEmail,
  );
}

/** To the shop's owners, for each paid order: "New sale: {kit titles}, {total}". */
export function ownerSaleMail(
  ctx: MailContext,
  to: string,
  order: { publicId: string; buyerEmail: string; items: { title: string }[]; totalCents: number },
) {
  const total = `USD ${(order.totalCents / 100).toFixed(2)}`;
  const titles = order.items.map((i) => i.title).join(', ');
  return {
    ...compose(
      to,
      `New sale: ${titles}, ${total}`,
      {
        heading: 'New sale',
        paragraphs: [`${order.buyerEmail} paid ${total} for ${titles} (order ${order.publicId}).`],
        action: { label: 'Open the order', url: `${ctx.publicUrl}/admin/orders/${order.publicId}` },
      },
      ctx.supportEmail,
    ),
    ref: order.publicId,
  };
}

/** An owner's answer to a contact message; replies go to the support address. */
/** A reply that opens with a greeting of its own. */
const GREETING = /^\s*(?:hi|hello|hey|hiya|dear|greetings|good (?:morning|afternoon|evening|day))\b/i;

export function messageReplyMail(
  ctx: MailContext,
  message: { name: string; email: string; topic: string | null; message: string },
  body: string,
) {
  const mail = compose(
    message.email,
    `Re: ${message.topic ?? 'your message'}`,
    {
      // The owner's own greeting stands alone: no "Hi Mary," above "Hello Mary,".
      heading: GREETING.test(body) ? undefined : `Hi ${message.name},`,
      paragraphs: [...body.split(/\n{2,}/), `You wrote: “${message.message.slice(0, 500)}”`],
      footer: `Reply to this mail or write to ${ctx.supportEmail}.`,
    },
    ctx.supportEmail,
  );
  return { ...mail, headers: { 'Reply-To': ctx.supportEmail } };
}

/**
 * An address header's value with the name as an RFC 5322 quoted string, so that a name like
 * `attacker@evil.example,` stays a name and never becomes a second address. nodemailer parses the
 * value with its addressparser (which reads the quoting) and encodes the name again, as MIME words
 * when it is not ASCII.
 */
const quotedAddress = (name: string, address: string) =>
  `"${name.replace(/[\r\n]+/g, ' ').replace(/(["\\])/g, '\\$1')}" <${address}>`;

/** A contact message, to the shop's support address; replying answers the sender. */
export function contactMail(
  ctx: MailContext,
  message: { topic?: string; name: string; email: string; message: string },
) {
  const mail = compose(
    ctx.supportEmail,
    `[Contact] ${message.topic ?? 'General'}: ${message.name}`,
    {
      heading: `New message from ${message.name}`,
      paragraphs: [
        `From: ${message.name} <${message.email}>`,
        `Topic: ${message.topic ?? '(none)'}`,
        ...message.message.split(/\n{2,}/),
      ],
      footer: 'Reply to this mail to answer the sender.',
    },
    ctx.supportEmail,
  );
  return { ...mail, headers: { 'Reply-To': quotedAddress(message.name, message.email) } };
}

/** The welcome mail of the newsletter, with one-click unsubscribe (RFC 8058). */
export function newsletterWelcomeMail(ctx: MailContext, email: string, unsubscribeUrl: string) {
  const mail = compose(
    email,
    `Welcome to the ${SITE_NAME} newsletter`,
    {
      heading: 'You are subscribed',
      paragraphs: [
        `Thanks for subscribing to the ${SITE_NAME} newsletter: new kits, major kit updates and the occasional deep dive into how they are built. About once a month, never more than twice.`,
        `Changed your mind? Unsubscribe with one click: ${unsubscribeUrl}`,
      ],
      action: { label: 'Browse the kits', url: `${ctx.publicUrl}/#kits` },
      footer: `You receive this because ${email} was subscribed at ${ctx.publicUrl}. Unsubscribe: ${unsubscribeUrl}`,
    },
    ctx.supportEmail,
  );
  return {
    ...mail,
    link: unsubscribeUrl,
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** A new version of a kit the buyer owns: its changelog entry and the way to the download. */
export function kitUpdateMail(
  ctx: MailContext,
  to: { name: string; email: string },
  release: { title: string; version: string; changelog: string },
) {
  const lines = release.changelog
    .split('\n')
    .map((line) => line.replace(/^[-*]\s+/, '• ').trim())
    .filter(Boolean);
  return compose(
    to.email,
    `${release.title} ${release.version} is available`,
    {
      heading: `${release.title} ${release.version} is out`,
      paragraphs: [
        `Hi ${to.name}, a new version of a kit you own is ready to download in your user panel. What changed:`,
        ...lines,
      ],
      action: { label: 'Download the new version', url: `${ctx.publicUrl}/user-panel` },
    },
    ctx.supportEmail,
  );
}

/**
 * A version published from the owner console, the same mail to every buyer of the kit (queued in
 * one statement, so it names nobody): its release notes, the changelog and the upgrade patch.
 */
export function kitReleaseMail(
  ctx: MailContext,
  release: { title: string; sefId: string; version: string; notes: string },
): Omit<OutgoingMail, 'to'> & { link: string } {
  const lines = release.notes
    .split('\n')
    .map((line) =>
      line
        .replace(/^#+\s+/, '')
        .replace(/^[-*]\s+/, '• ')
        .trim(),
    )
    .filter(Boolean);
  const item = `${ctx.publicUrl}/user-panel/item/${encodeURIComponent(release.sefId)}`;
  const { to: _to, ...mail } = compose(
    '',
    `${release.title} ${release.version} is available`,
    {
      heading: `${release.title} ${release.version} is out`,
      paragraphs: [
        'Hello, a new version of a kit you own is ready to download in your user panel. What changed:',
        ...lines,
        'Already building on an older version? The upgrade patch applies the changes to your copy with git apply.',
      ],
      footer: `You get this mail because you own ${release.title}; turn these mails off under its changelog. Questions? Write to ${ctx.supportEmail}.`,
      action: { label: 'Read the changelog', url: `${item}#changelog` },
      more: { label: 'Upgrade patch', url: `${item}#upgrade-patch` },
    },
    ctx.supportEmail,
  );
  return { ...mail, link: `${item}#changelog` };
}

const dollars = (cents: number) => `USD ${(cents / 100).toFixed(2)}`;

/**
 * A refund applied to an order (in full or in part, from the provider or the owner): what came
 * back, which kits left the buyer's library and which stay, and any upgrade the refund ended.
 */
export function refundMail(
  ctx: MailContext,
  to: { name: string; email: string },
  refund: {
    publicId: string;
    lines: { title: string; refundedCents: number; priceCents: number; full: boolean }[];
    cents: number;
    removed: string[];
    kept: string[];
    endedUpgrades: string[];
  },
) {
  const lines = refund.lines.map(
    (l) =>
      `• ${l.title}: ${dollars(l.refundedCents)} ${l.full ? 'refunded in full' : `of ${dollars(l.priceCents)} refunded so far`}`,
  );
  return compose(
    to.email,
    `Refund of ${dollars(refund.cents)} for your ${SITE_NAME} order ${refund.publicId}`,
    {
      heading: 'Your refund',
      paragraphs: [
        `Hi ${to.name}, we refunded ${dollars(refund.cents)} (before tax) of your order ${refund.publicId}. It goes back to the way you paid; your bank may take a few days to show it.`,
        ...lines,
        ...(refund.removed.length > 0 ? [`No longer in your library: ${refund.removed.join(', ')}.`] : []),
        ...(refund.endedUpgrades.length > 0
          ? [`Your upgrade was priced on what was refunded, so it ended too: ${refund.endedUpgrades.join(', ')}.`]
          : []),
        ...(refund.kept.length > 0 ? [`Still yours, as before: ${refund.kept.join(', ')}.`] : []),
      ],
      action: { label: 'Open my user panel', url: `${ctx.publicUrl}/user-panel` },
    },
    ctx.supportEmail,
  );
}

/** The shop's owner gave the customer a kit. */
export function kitGrantedMail(ctx: MailContext, to: { name: string; email: string }, kit: { title: string }) {
  return compose(
    to.email,
    `${kit.title} is in your ${SITE_NAME} library`,
    {
      heading: `${kit.title} is yours`,
      paragraphs: [
        `Hi ${to.name}, we added ${kit.title} to your library: its downloads, documentation and setup guide are in your user panel.`,
      ],
      action: { label: 'Open my user panel', url: `${ctx.publicUrl}/user-panel` },
    },
    ctx.supportEmail,
  );
}

/** The shop's owner ended the customer's grant of a kit; `kept` when a purchase still pays for it. */
export function kitRevokedMail(
  ctx: MailContext,
  to: { name: string; email: string },
  kit: { title: string; kept: boolean },
) {
  return compose(
    to.email,
    kit.kept
      ? `Your free access to ${kit.title} ended; you keep the kit you bought`
      : `${kit.title} was removed from your ${SITE_NAME} library`,
    {
      heading: kit.kept ? `You keep ${kit.title}` : `${kit.title} was removed`,
      paragraphs: kit.kept
        ? [
            `Hi ${to.name}, the free access to ${kit.title} we gave you ended. You bought the kit too, so it stays in your library as before.`,
          ]
        : [
            `Hi ${to.name}, the access to ${kit.title} we gave you ended, and the kit is no longer in your library. The rest of your library is unchanged.`,
            `If you think this is a mistake, write to ${ctx.supportEmail}.`,
          ],
      action: { label: 'Open my user panel', url: `${ctx.publicUrl}/user-panel` },
    },
    ctx.supportEmail,
  );
}

/** A Team licence's buyer invited this address to a seat: the link signs in (or up) and accepts. */
export function seatInvitationMail(
  ctx: MailContext,
  to: string,
  invitation: { kitTitle: string; managerName: string; managerEmail: string; token: string },
) {
  const { kitTitle, managerName, managerEmail } = invitation;
  return compose(
    to,
    `${managerName} invited you to a seat of ${kitTitle}`,
    {
      heading: `A seat of ${kitTitle} for you`,
      paragraphs: [
        `${managerName} (${managerEmail}) bought a Team licence of ${kitTitle} and invited you to one of its seats: its downloads, documentation, setup guide and GitHub access will be in your own ${SITE_NAME} user panel.`,
        `Sign in or sign up with this address (${to}), then accept the invitation. If you did not expect it, ignore this mail.`,
      ],
      action: {
        label: 'Accept the invitation',
        url: `${ctx.publicUrl}/seat-invitation/${encodeURIComponent(invitation.token)}`,
      },
    },
    ctx.supportEmail,
  );
}
