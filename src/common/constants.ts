/** Names of the icons a kit's header cards and "why" items may use (drawn by the web app). */
export const ICON_NAMES = [
  'rocket',
  'shield',
  'code',
  'layers',
  'database',
  'lock',
  'palette',
  'chart',
  'users',
  'globe',
  'terminal',
  'phone',
  'cloud',
  'check',
  'bolt',
  'book',
  'gear',
  'card',
] as const;
export type IconName = (typeof ICON_NAMES)[number];

export const SHOP_NAME = 'Kitshop';
export const FOOTER_YEAR = 2025;

export const TOAST_DELAY_MS = 3000;
export const HOME_CARD_FEATURES = 3;
export const INCLUDED_MAIN_COUNT = 8;

/** The contact form's topics, in the spec's order (shared by the form and the server's schema). */
export const CONTACT_TOPICS = [
  'Pre-sales (pricing, license, usage)',
  'Product support (installed kit)',
  'Bug report',
  'Feature request',
  'Billing or refund',
  'Documentation issue',
  'Partnership / affiliate',
  'Other',
] as const;

/** Field lengths the server accepts; forms stop longer input before it is sent. */
export const FIELD_LIMITS = { name: 100, email: 254, message: 5000 } as const;

/**
 * Passwords: 8 to 128 characters (a list of common passwords is refused on the server). A password
 * changed on the Profile tab must also hold a number and a symbol, as the spec's hint there says;
 * sign-up and reset keep their spec's "minimum 8" alone. Here, not in the schemas, so a screen can
 * state them without loading Zod.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** The spec's message when a new password and its confirmation differ (forms and server). */
export const PASSWORDS_NOT_MATCHING = 'Passwords are not matching.';

/** How long a visitor's analytics choice (Accept or Reject Analytics) is remembered. */
export const ANALYTICS_CONSENT_MONTHS = 6;
/** The browser storage key of that choice: `{"choice":"granted"|"denied","at":<ms>}`. */
export const ANALYTICS_CONSENT_KEY = 'analyticsConsent';

/**
 * How long the shop keeps personal data: the scheduled housekeeping deletes by these numbers and
 * the privacy policy states them (messages: MESSAGE_RETENTION_DAYS, this being its default).
 */
export const RETENTION_DAYS = {
  contactMessages: 730,
  downloadLogsAndIps: 180,
  unverifiedAccounts: 30,
} as const;

/** A discount code: letters, digits, `-` and `_` (it fits in a sale link, `?code=SPRING`, as it is). */
export const DISCOUNT_CODE_CHARS = 'A-Za-z0-9_-';
export const DISCOUNT_CODE_LENGTH = { min: 2, max: 40 } as const;
/** The whole rule in one pattern, for the browser (boot.js spells it again; a test keeps them in step). */
export const DISCOUNT_CODE_PATTERN = new RegExp(
  `^[${DISCOUNT_CODE_CHARS}]{${DISCOUNT_CODE_LENGTH.min},${DISCOUNT_CODE_LENGTH.max}}$`,
);
