import { type SQL, sql } from 'drizzle-orm';
import type { OwnerMessage } from '../../../common/schemas/owner.ts';
import type { Database, Reader } from '../../db/open.ts';
import { csvCell } from '../../lib/csv.ts';
import { containsPattern } from '../../lib/search.ts';

/** What the owner console reads and changes of messages and subscribers (only their own tables). */

export type MessageStatus = 'new' | 'answered' | 'all';
type OwnerMessageRow = OwnerMessage;

const MESSAGE_COLUMNS = sql`id, created_at, topic, name, email, message,
  CASE WHEN answered_at IS NULL THEN 'new' ELSE 'answered' END AS status`;

type Keyset = { at: string; id: number };

/** Contact messages of a status whose sender, e-mail or text contains the search (each has a trigram index). */
function messageFilter(status: MessageStatus, query: string | undefined): SQL {
  const where: SQL[] = [
    status === 'new' ? sql`answered_at IS NULL` : status === 'answered' ? sql`answered_at IS NOT NULL` : sql`true`,
  ];
  if (query) {
    const pattern = containsPattern(query);
    where.push(sql`(name ILIKE ${pattern} OR email ILIKE ${pattern} OR message ILIKE ${pattern})`);
  }
  return sql.join(where, sql` AND `);
}

/**
 * Contact messages newest first, a page at a time by cursor (created_at, id of the last one seen),
 * and how many match in all (the page's heading counts them).
 */
export async function messagesPage(
  db: Reader,
  options: { status: MessageStatus; query?: string; after?: Keyset; limit: number },
) {
  const where = messageFilter(options.status, options.query);
  const after = options.after
    ? sql`AND (created_at, id) < (${options.after.at}::timestamptz, ${options.after.id})`
    : sql``;
  const [page, total] = await Promise.all([
    db.execute<OwnerMessageRow & { cursor_at: string }>(sql`
      SELECT ${MESSAGE_COLUMNS}, created_at::text AS cursor_at FROM contact_messages WHERE ${where} ${after}
       ORDER BY created_at DESC, id DESC LIMIT ${options.limit}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM contact_messages WHERE ${where}`),
  ]);
  return { total: total.rows[0]?.n ?? 0, rows: page.rows };
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

export { csvCell };

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

/** A file bigger than this is built for each download rather than kept in memory. */
const MAX_KEPT_CSV_CHARS = 16 * 1024 * 1024;

/**
 * The console's subscribers.csv, kept in this instance's memory while it is current: the version a
 * statement trigger raises with every change to subscribers is read in the same snapshot as the list,
 * so one primary-key read tells whether the kept file still holds every change committed before the
 * request. Owners downloading at once share one build.
 */
export function subscribersCsvFile(db: Database): () => Promise<string> {
  type Kept = { version: number; body: string };
  let kept: Promise<Kept> | undefined;
  const versionOf = async (reader: Reader) => {
    const { rows } = await reader.execute<{ version: string }>(
      sql`SELECT version::text AS version FROM subscriber_list_version WHERE id = 1`,
    );
    return Number(rows[0]?.version ?? 0);
  };
  const build = () =>
    db.transaction(
      async (tx): Promise<Kept> => {
        const version = await versionOf(tx);
        const lines = await subscriberCsvLines(tx);
        return { version, body: `${lines.join('\r\n')}\r\n` };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  return async () => {
    const version = await versionOf(db);
    for (let round = 0; round < 3; round++) {
      const current = kept;
      const known = await current?.catch(() => undefined);
      if (known && known.version >= version) return known.body;
      // Another request may have started a build meanwhile: wait for that one instead.
      if (kept !== current) continue;
      const building = build();
      kept = building;
      const built = await building.catch((err) => {
        if (kept === building) kept = undefined;
        throw err;
      });
      if (built.body.length > MAX_KEPT_CSV_CHARS && kept === building) kept = undefined;
      return built.body;
    }
    return (await build()).body;
  };
}

/**
 * Active subscribers newest first, optionally those whose address contains the search, a page at a
 * time by cursor (subscribed_at, id of the last one seen), and how many match in all.
 */
export async function subscribersPage(db: Reader, options: { query?: string; after?: Keyset; limit: number }) {
  const where = options.query
    ? sql`unsubscribed_at IS NULL AND email ILIKE ${containsPattern(options.query)}`
    : sql`unsubscribed_at IS NULL`;
  const after = options.after
    ? sql`AND (subscribed_at, id) < (${options.after.at}::timestamptz, ${options.after.id})`
    : sql``;
  const [page, total] = await Promise.all([
    db.execute<{ id: number; email: string; subscribed_at: string; cursor_at: string }>(sql`
      SELECT id, email, subscribed_at, subscribed_at::text AS cursor_at FROM subscribers WHERE ${where} ${after}
       ORDER BY subscribed_at DESC, id DESC LIMIT ${options.limit}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers WHERE ${where}`),
  ]);
  return { total: total.rows[0]?.n ?? 0, rows: page.rows };
}
