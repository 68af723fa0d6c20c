import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
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
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
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
