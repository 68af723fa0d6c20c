import { sql } from 'drizzle-orm';
import type { OwnerMessage } from '../../../common/schemas/owner.ts';
import type { Reader } from '../../db/open.ts';

/** What the owner console reads and changes of messages and subscribers (only their own tables). */

export type MessageStatus = 'new' | 'answered' | 'all';
type OwnerMessageRow = OwnerMessage;

const MESSAGE_COLUMNS = sql`id, created_at, topic, name, email, message,
  CASE WHEN answered_at IS NULL THEN 'new' ELSE 'answered' END AS status`;

/** Contact messages newest first (the latest 200). */
export async function listMessages(db: Reader, status: MessageStatus): Promise<OwnerMessageRow[]> {
  const where =
    status === 'new' ? sql`answered_at IS NULL` : status === 'answered' ? sql`answered_at IS NOT NULL` : sql`true`;
  const { rows } = await db.execute<OwnerMessageRow>(
    sql`SELECT ${MESSAGE_COLUMNS} FROM contact_messages WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT 200`,
  );
  return rows;
}

/** One message; with `lock`, locked for the caller's transaction. */
export async function findMessage(db: Reader, id: number, lock = false): Promise<OwnerMessageRow | undefined> {
  const { rows } = await db.execute<OwnerMessageRow>(
    sql`SELECT ${MESSAGE_COLUMNS} FROM contact_messages WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  return rows[0];
}

export async function markAnswered(tx: Reader, id: number): Promise<OwnerMessageRow> {
  const { rows } = await tx.execute<OwnerMessageRow>(
    sql`UPDATE contact_messages SET answered_at = COALESCE(answered_at, now()) WHERE id = ${id} RETURNING ${MESSAGE_COLUMNS}`,
  );
  return rows[0]!;
}

/**
 * One CSV cell: quoted when it holds a separator, quote or line break; a leading = + - @ or control
 * character gets a ' first, so a spreadsheet never reads it as a formula (CSV injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The active subscribers as CSV lines, header first, oldest first, the time in ISO 8601 (UTC):
 * what the console's download and `npm run subscribers -- export` both write.
 */
export async function subscriberCsvLines(db: Reader): Promise<string[]> {
  const { rows } = await db.execute<{ email: string; subscribed_at: string }>(sql`
    SELECT email, to_char(subscribed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS subscribed_at
      FROM subscribers WHERE unsubscribed_at IS NULL ORDER BY subscribed_at, id`);
  return ['email,subscribed_at', ...rows.map((r) => `${csvCell(r.email)},${r.subscribed_at}`)];
}

/** Active subscribers, oldest first, by cursor (subscribed_at, id of the last one seen). */
export async function subscribersPage(db: Reader, options: { after?: { at: string; id: number }; limit: number }) {
  const after = options.after
    ? sql`AND (subscribed_at, id) > (${options.after.at}::timestamptz, ${options.after.id})`
    : sql``;
  const [page, total] = await Promise.all([
    db.execute<{ id: number; email: string; subscribed_at: string; cursor_at: string }>(sql`
      SELECT id, email, subscribed_at, subscribed_at::text AS cursor_at FROM subscribers WHERE unsubscribed_at IS NULL ${after}
       ORDER BY subscribed_at, id LIMIT ${options.limit}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers WHERE unsubscribed_at IS NULL`),
  ]);
  return { total: total.rows[0]?.n ?? 0, rows: page.rows };
}
