import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** argon2id; null for an account that only signs in with Google. */
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamptz('email_verified_at'),
    googleSub: text('google_sub'),
    /** The TOTP secret, sealed with a key derived from SESSION_SECRET (lib/secret-box.ts); null while two-step sign-in is off. */
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamptz('totp_enabled_at'),
    /** The last accepted TOTP time step: a code is taken once, and never one older than it. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: createdAt(),
    /**
     * Set when the account was deleted: the row stays only as the pseudonymous buyer of its orders
     * (name and e-mail replaced, no way to sign in), as accounting must keep sales.
     */
    deletedAt: timestamptz('deleted_at'),
  },
  (t) => [
    // E-mail is unique without regard to case.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_sub_key').on(t.googleSub),
    index('users_created_at_idx').on(t.createdAt, t.id),
    // The owner console's search (ILIKE '%text%'), with pg_trgm (migration 0007 creates the extension).
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

/**
 * Accounts created per UTC day (a deleted account's pseudonymous row still counts, a swept one no
 * longer does), kept by statement triggers on users (migration 0013), so the owner's new-customers
 * figure sums at most a day per row instead of counting every account of the range. A sign-up
 * holds its day's row until it commits: sign-ups of one day take turns for that moment.
 */
export const accountDays = pgTable('account_days', {
  day: date('day').primaryKey(),
  accounts: integer('accounts').notNull().default(0),
});

/** A reference to the user a row belongs to (the other features' tables use it too). */
export const userIdColumn = (actions: { onDelete?: 'cascade' } = {}) =>
  integer('user_id')
    .notNull()
    .references(() => users.id, actions);

/** Sign-in sessions; the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: userIdColumn({ onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Absolute end: 30 days with "Remember Me", else 12 hours. */
    expiresAt: timestamptz('expires_at').notNull(),
    /** Without "Remember Me" a session also ends after 2 idle hours. */
    remember: boolean('remember').notNull().default(false),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    /** What the sessions list shows and ends a session by; never the token. */
    publicId: uuid('public_id').notNull().defaultRandom(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** How the session was started: password, code (password and a second step), passkey, google, link. */
    method: text('method'),
    /** A passkey's session ends with the passkey. */
    passkeyId: integer('passkey_id').references(() => passkeys.id, { onDelete: 'cascade' }),
    /**
     * Whether this session proved more than a password: it began with a passkey or a second step,
     * or it turned two-step sign-in on or added a passkey (each proves the factor). The owner
     * console needs such a session.
     */
    secondFactor: boolean('second_factor').notNull().default(false),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
    uniqueIndex('sessions_public_id_key').on(t.publicId),
    index('sessions_passkey_id_idx').on(t.passkeyId),
  ],
);

/** Single-use e-mail links (verification, password reset, e-mail change): random token, stored hashed. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: serial('id').primaryKey(),
    userId: userIdColumn({ onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'reset', 'email_change'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The address an `email_change` link moves the account to (the link goes there). */
    newEmail: text('new_email'),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [
    uniqueIndex('email_tokens_token_hash_key').on(t.tokenHash),
    index('email_tokens_user_purpose_idx').on(t.userId, t.purpose),
  ],
);

/** Shared counters for rate limits (fixed windows), so every instance sees the same count. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamptz('reset_at').notNull(),
  },
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
);

/** WebAuthn credentials (passkeys) of an account. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: userIdColumn({ onDelete: 'cascade' }),
    /** base64url, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_id_idx').on(t.userId)],
);

/** One-time recovery codes of two-step sign-in, each stored as an argon2id hash (a code holds about 50 random bits). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: userIdColumn({ onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * Short-lived sign-in state, single use, deleted by housekeeping once expired: WebAuthn challenges
 * (keyed by the challenge's SHA-256), a password sign-in waiting for its code (keyed by the
 * cookie's token hash) and a two-step setup waiting for its first code (the sealed secret).
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    key: text('key').primaryKey(),
    purpose: text('purpose', { enum: ['passkey-register', 'passkey-sign-in', 'second-step', 'totp-setup'] }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    payload: text('payload').notNull().default(''),
    remember: boolean('remember').notNull().default(false),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('auth_challenges_expires_at_idx').on(t.expiresAt), index('auth_challenges_user_id_idx').on(t.userId)],
);

/** The devices (browser and system, from the user agent) an account has signed in from: a new one is mailed. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: userIdColumn({ onDelete: 'cascade' }),
    device: text('device').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.device] })],
);
