import { and, desc, eq, gt, or, sql } from 'drizzle-orm';
import type { AccountSession } from '../../../common/schemas/account-security.ts';
import type { Database } from '../../db/open.ts';
import { knownDevices, sessions, users } from '../../db/schema/accounts.ts';
import { AppError } from '../../http/errors.ts';
import { hashSessionToken } from '../../http/session.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { newDeviceMail } from '../../integrations/mail/security-notices.ts';
import type { MailContext } from '../../integrations/mail/templates.ts';
import { deviceLabel } from '../../lib/user-agent.ts';

const IDLE_HOURS = 2;

/** The account's live sessions, newest first; `current` marks the one this request holds. */
export async function listSessions(
  db: Pick<Database, 'select'>,
  userId: number,
  currentToken: string | undefined,
): Promise<AccountSession[]> {
  const currentHash = currentToken ? hashSessionToken(currentToken) : '';
  const rows = await db
    .select({
      tokenHash: sessions.tokenHash,
      publicId: sessions.publicId,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      method: sessions.method,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        gt(sessions.expiresAt, sql`now()`),
        or(eq(sessions.remember, true), gt(sessions.lastSeenAt, sql`now() - make_interval(hours => ${IDLE_HOURS})`)),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .limit(100);
  return rows
    .map((row) => ({
      id: row.publicId,
      device: deviceLabel(row.userAgent),
      ip: row.ip,
      method: row.method,
      created_at: row.createdAt.toISOString(),
      last_seen_at: row.lastSeenAt.toISOString(),
      current: row.tokenHash === currentHash,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one of the account's sessions by its public id (another account's id ends nothing: 404). */
export async function endSession(db: Pick<Database, 'delete'>, userId: number, publicId: string): Promise<void> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
    .returning({ id: sessions.publicId });
  if (ended.length === 0) throw new AppError('not_found', 'This session has already ended.');
}

/** Ends every session of the account (an owner's `Sign Out Everywhere`); answers how many ended. */
export async function endAllSessions(db: Pick<Database, 'delete'>, userId: number): Promise<number> {
  const ended = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.publicId });
  return ended.length;
}

/**
 * Remembers the device (browser and system) of a sign-in; the first sign-in from one the account
 * has not used before mails a notice. An account's very first device is not news to its owner.
 */
export async function noteSignInDevice(
  db: Database,
  ctx: MailContext,
  userId: number,
  sign: { userAgent: string | undefined; ip: string },
): Promise<boolean> {
  const device = deviceLabel(sign.userAgent);
  return db.transaction(async (tx) => {
    const [added] = await tx
      .insert(knownDevices)
      .values({ userId, device })
      .onConflictDoNothing()
      .returning({ device: knownDevices.device });
    if (!added) return false;
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(knownDevices)
      .where(eq(knownDevices.userId, userId));
    if (count <= 1) return false;
    const [user] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) return false;
    await enqueueMail(tx, newDeviceMail(ctx, user, { device, ip: sign.ip, at: new Date() }));
    return true;
  });
}
