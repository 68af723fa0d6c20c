import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { userIdColumn, users } from './accounts.ts';
import { createdAt, timestamptz } from './columns.ts';

/** A customer's GitHub account (one each way): its numeric id never changes, its login may. */
export const githubAccounts = pgTable(
  'github_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    githubId: bigint('github_id', { mode: 'number' }).notNull(),
    login: text('login').notNull(),
    connectedAt: createdAt(),
  },
  (t) => [uniqueIndex('github_accounts_github_id_key').on(t.githubId)],
);

/**
 * Repository access, as durable jobs: a grant (invite as a reader) or a revoke (invitation and
 * collaborator removed) of one repository for one GitHub account, queued in the transaction of
 * the payment, refund, grant, revoke or disconnect that causes it, and run by whichever instance
 * claims it (FOR UPDATE SKIP LOCKED). Jobs of one repository and account run one after another, in
 * order. A row outlives its user (user_id set null), so an account deletion's revokes still run.
 */
export const githubJobs = pgTable(
  'github_jobs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['grant', 'revoke'] }).notNull(),
    repository: text('repository').notNull(),
    githubId: bigint('github_id', { mode: 'number' }).notNull(),
    login: text('login').notNull(),
    status: text('status', { enum: ['queued', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    /** What GitHub answered a grant: `invited` (201) or `active` (204, a collaborator already). */
    outcome: text('outcome', { enum: ['invited', 'active', 'revoked'] }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('github_jobs_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index('github_jobs_user_repository_idx').on(t.userId, t.repository, t.id),
    index('github_jobs_queued_target_idx').on(t.repository, t.githubId, t.id).where(sql`${t.status} = 'queued'`),
  ],
);

/**
 * The OAuth `state` of a GitHub connection under way: stored hashed, bound to the session that
 * started it, with its PKCE verifier; the callback deletes it (single use), expired ones are swept.
 */
export const githubOauthStates = pgTable('github_oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  sessionHash: text('session_hash').notNull(),
  userId: userIdColumn({ onDelete: 'cascade' }),
  codeVerifier: text('code_verifier').notNull(),
  returnPath: text('return_path').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});
