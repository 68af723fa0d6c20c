import { createHash, randomBytes } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ContactSchema } from '../../../common/schemas/messages.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { contactMessages, subscribers } from '../../db/schema/messages.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { contactMail, newsletterWelcomeMail } from '../../integrations/mail/templates.ts';

export type MessagesDeps = { db: Database; config: Config; mailQueued: () => void };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Stores the message first, then queues it to the support address in the same transaction. */
export async function sendContactMessage(
  deps: MessagesDeps,
  input: z.output<typeof ContactSchema>,
  ip: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(contactMessages)
      .values({ topic: input.topic ?? null, name: input.name, email: input.email, message: input.message, ip });
    await enqueueMail(tx, contactMail(deps.config, input));
  });
  deps.mailQueued();
}

/**
 * Subscribes an address once, without regard to case: subscribing again is a success that sends
 * nothing; a past unsubscriber is welcomed back with a fresh unsubscribe link.
 */
/** `email` as SubscribeSchema leaves it (trimmed). */
export async function subscribe(deps: MessagesDeps, email: string): Promise<void> {
  const token = randomBytes(24).toString('base64url');
  const url = `${deps.config.publicUrl}/newsletter/unsubscribe?token=${token}`;
  const welcomed = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: number }>(sql`
      INSERT INTO subscribers (email, token_hash) VALUES (${email}, ${hash(token)})
      ON CONFLICT (lower(email)) DO UPDATE SET token_hash = excluded.token_hash, subscribed_at = now(), unsubscribed_at = NULL
        WHERE subscribers.unsubscribed_at IS NOT NULL
      RETURNING id`);
    const row = rows[0];
    if (!row) return false; // already subscribed
    await enqueueMail(tx, newsletterWelcomeMail(deps.config, email, url));
    return true;
  });
  if (welcomed) deps.mailQueued();
}

/** Unsubscribes the address the token belongs to; false when the token is unknown. */
export async function unsubscribe(db: Database, token: string): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const [row] = await db
    .update(subscribers)
    .set({ unsubscribedAt: sql`coalesce(${subscribers.unsubscribedAt}, now())` })
    .where(eq(subscribers.tokenHash, hash(token)))
    .returning({ id: subscribers.id });
  return Boolean(row);
}

export async function isKnownToken(db: Database, token: string): Promise<'subscribed' | 'unsubscribed' | 'unknown'> {
  if (!token || token.length > 100) return 'unknown';
  const [row] = await db
    .select({ unsubscribedAt: subscribers.unsubscribedAt })
    .from(subscribers)
    .where(eq(subscribers.tokenHash, hash(token)));
  return !row ? 'unknown' : row.unsubscribedAt ? 'unsubscribed' : 'subscribed';
}

export async function latestMessages(db: Database, limit = 20) {
  return db
    .select()
    .from(contactMessages)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(limit);
}
