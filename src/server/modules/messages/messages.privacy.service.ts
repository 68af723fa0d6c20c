import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { deletedRows } from '../../lib/housekeeping.ts';

/** Messages' part of the privacy rights: what an address sent and subscribed to, its erasure, retention. */

const sameAddress = (column: ReturnType<typeof sql.raw>, email: string) =>
  sql`lower(${column}) = lower(${email.trim()})`;

/** Contact messages sent from this address, and its newsletter subscription (or null). */
export async function messagesExport(db: Reader, email: string) {
  const [messages, subscription] = await Promise.all([
    db.execute<{
      sent_at: string;
      topic: string | null;
      name: string;
      email: string;
      message: string;
      ip: string | null;
    }>(
      sql`SELECT created_at AS sent_at, topic, name, email, message, ip FROM contact_messages
           WHERE ${sameAddress(sql.raw('email'), email)} ORDER BY created_at, id`,
    ),
    db.execute<{ email: string; subscribed_at: string; unsubscribed_at: string | null }>(
      sql`SELECT email, subscribed_at, unsubscribed_at FROM subscribers WHERE ${sameAddress(sql.raw('email'), email)}`,
    ),
  ]);
  return { contact_messages: messages.rows, newsletter: subscription.rows[0] ?? null };
}

/** Deletes what this address sent and its newsletter subscription (an erased account's address). */
export async function forgetSender(tx: Reader, email: string): Promise<void> {
  await tx.execute(sql`DELETE FROM contact_messages WHERE ${sameAddress(sql.raw('email'), email)}`);
  await tx.execute(sql`DELETE FROM subscribers WHERE ${sameAddress(sql.raw('email'), email)}`);
}

/** Contact messages older than `days` (MESSAGE_RETENTION_DAYS); housekeeping runs it. */
export async function sweepOldMessages(db: Reader, days: number): Promise<number> {
  return deletedRows(
    await db.execute(sql`DELETE FROM contact_messages WHERE created_at < now() - make_interval(days => ${days})`),
  );
}

/** Forgets the sender's IP address of messages older than `days` (the message itself may stay longer). */
export async function sweepOldMessageIps(db: Reader, days: number): Promise<number> {
  return deletedRows(
    await db.execute(
      sql`UPDATE contact_messages SET ip = NULL WHERE ip IS NOT NULL AND created_at < now() - make_interval(days => ${days})`,
    ),
  );
}
