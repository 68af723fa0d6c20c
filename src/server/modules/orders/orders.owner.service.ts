import { type SQL, sql } from 'drizzle-orm';
import { centsToDollars } from '../../../common/money.ts';
import type { ORDER_STATUSES } from '../../../common/schemas/owner.ts';
import type { Reader } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { type MailContext, orderConfirmationMail } from '../../integrations/mail/templates.ts';
import { addDays, dayStart, daysBetween, today, utcDay } from '../../lib/days.ts';
import { accountsByIds } from '../accounts/accounts.owner.service.ts';

/** What the owner console reads of orders (only orders' own tables). */

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OwnerOrderRow = {
  id: number;
  public_id: string;
  user_id: number;
  status: OrderStatus;
  created_at: string;
  paid_at: string | null;
  total_cents: number;
  transaction_id: string | null;
  /** created_at in full precision, for the list's cursor. */
  cursor_at: string;
  lines: {
    id: number;
    kit_id: number;
    title: string;
    price_cents: number;
    /** Refunded in full: its kits are gone. */
    refunded: boolean;
    /** What refunds gave back of the line, in full or in part. */
    refunded_cents: number;
    /** An upgrade that ended when a purchase it counted was refunded. */
    lapsed: boolean;
    item_id: string | null;
    /** Seats of the line's licence tier (1 for Solo). */
    seats: number;
  }[];
};

const ORDER_COLUMNS = sql`o.id, o.public_id, o.user_id, o.status, o.created_at, o.paid_at, o.total_cents, o.transaction_id,
  o.created_at::text AS cursor_at,
  (SELECT json_agg(json_build_object('id', i.id, 'kit_id', i.kit_id, 'title', i.title, 'price_cents', i.price_cents,
          'refunded', i.refunded_at IS NOT NULL, 'refunded_cents', i.refunded_cents, 'lapsed', i.lapsed_at IS NOT NULL,
          'item_id', i.transaction_item_id, 'seats', i.seats) ORDER BY i.id)
     FROM order_items i WHERE i.order_id = o.id) AS lines`;

export type OrderSearch = {
  status?: OrderStatus;
  after?: { at: string; id: number };
  limit: number;
  /**
   * A text search: orders with this public id, of the buyers this query gives (accounts'
   * `accountsMatchingSql`), or with these kits.
   */
  match?: { publicId: string; buyers: SQL; kitIds: number[] };
};

/**
 * Orders newest first by cursor. A search runs one index-ordered branch per kind of match (order id,
 * buyers, kits) and merges them, so a rare match never walks the whole table.
 */
export async function listOrders(db: Reader, search: OrderSearch): Promise<OwnerOrderRow[]> {
  const base: SQL[] = [sql`true`];
  if (search.status) base.push(sql`o.status = ${search.status}`);
  if (search.after) base.push(sql`(o.created_at, o.id) < (${search.after.at}::timestamptz, ${search.after.id})`);
  const branch = (extra: SQL) =>
    sql`(SELECT o.id, o.created_at FROM orders o WHERE ${sql.join([...base, extra], sql` AND `)}
          ORDER BY o.created_at DESC, o.id DESC LIMIT ${search.limit})`;
  let ids: SQL;
  if (!search.match) ids = branch(sql`true`);
  else {
    const { publicId, buyers, kitIds } = search.match;
    const branches = [branch(sql`o.public_id = ${publicId}`), branch(sql`o.user_id IN (${buyers})`)];
    if (kitIds.length > 0)
      branches.push(
        branch(
          sql`EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.kit_id = ANY(${sql.param(kitIds)}::int[]))`,
        ),
      );
    ids = sql.join(branches, sql` UNION `);
  }
  const { rows } = await db.execute<OwnerOrderRow>(sql`
    WITH picked AS (SELECT DISTINCT id, created_at FROM (${ids}) b ORDER BY created_at DESC, id DESC LIMIT ${search.limit})
    SELECT ${ORDER_COLUMNS} FROM picked JOIN orders o ON o.id = picked.id ORDER BY o.created_at DESC, o.id DESC`);
  return rows;
}

/** One order by its public id; with `lock`, locked for the caller's transaction. */
export async function findOrder(db: Reader, publicId: string, lock = false): Promise<OwnerOrderRow | undefined> {
  const { rows } = await db.execute<OwnerOrderRow>(
    sql`SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.public_id = ${publicId} ${lock ? sql`FOR UPDATE OF o` : sql``}`,
  );
  return rows[0];
}

/** The payment events received for a transaction, oldest first. */
export async function paymentEventsOf(db: Reader, transactionId: string | null) {
  if (!transactionId) return [];
  const { rows } = await db.execute<{ at: string; type: string; outcome: string; detail: string | null }>(sql`
    SELECT received_at AS at, event_type AS type, outcome, detail FROM payment_events
     WHERE transaction_id = ${transactionId} ORDER BY received_at, event_id`);
  return rows;
}

/** Per buyer: orders paid (refunded ones too) and what they spent, less what refunds gave back. */
export async function buyerTotals(db: Reader, userIds: number[]) {
  const totals = new Map<number, { orders: number; spent: number }>();
  if (userIds.length === 0) return totals;
  const { rows } = await db.execute<{ user_id: number; orders: number; spent_cents: number }>(sql`
    SELECT o.user_id, count(*)::int AS orders,
           COALESCE(sum((SELECT COALESCE(sum(i.price_cents - i.refunded_cents), 0) FROM order_items i WHERE i.order_id = o.id)), 0)::int AS spent_cents
      FROM orders o
     WHERE o.user_id = ANY(${sql.param(userIds)}::int[]) AND o.paid_at IS NOT NULL
     GROUP BY o.user_id`);
  for (const row of rows) totals.set(row.user_id, { orders: row.orders, spent: centsToDollars(row.spent_cents) });
  return totals;
}

/** A buyer's orders, newest first (at most 100). */
export async function ordersOfBuyer(db: Reader, userId: number) {
  const { rows } = await db.execute<{ id: string; status: string; created_at: string; total_cents: number }>(sql`
    SELECT o.public_id AS id, o.status, o.created_at, o.total_cents FROM orders o
     WHERE o.user_id = ${userId} ORDER BY o.created_at DESC, o.id DESC LIMIT 100`);
  return rows.map(({ total_cents, ...row }) => ({ ...row, total: centsToDollars(total_cents) }));
}

/** The buyer's paid lines not refunded in full nor lapsed: the kits orders give them. */
export async function paidLinesOf(db: Reader, userId: number, kitIds?: number[]) {
  const { rows } = await db.execute<{ kit_id: number; title: string; order_id: string; paid_at: string }>(sql`
    SELECT DISTINCT ON (i.kit_id) i.kit_id, i.title, o.public_id AS order_id, o.paid_at
      FROM orders o JOIN order_items i ON i.order_id = o.id
     WHERE o.user_id = ${userId} AND o.status IN ('paid', 'partially_refunded') AND i.refunded_at IS NULL
       AND i.lapsed_at IS NULL
       ${kitIds ? sql`AND i.kit_id = ANY(${sql.param(kitIds)}::int[])` : sql``}
     ORDER BY i.kit_id, o.paid_at`);
  return rows;
}

// ---- Sales figures -------------------------------------------------------------------------------

export type DaySales = { date: string; gross_cents: number; refunds_cents: number; orders: number; checkouts: number };
export type KitSales = { kit_id: number; units: number; gross_cents: number };

/** Days before this one are whole and kept in sales_days (a margin for payments committing at midnight). */
export const firstLiveDay = (now = Date.now()) => new Date(now - 10 * 60_000).toISOString().slice(0, 10);

const liveDays = (from: string, toExclusive: string) => sql`
  WITH days AS (SELECT d::date AS day FROM generate_series(${from}::date, ${toExclusive}::date - 1, interval '1 day') d),
  paid AS (SELECT ${utcDay(sql`paid_at`)} AS day, sum(total_cents) AS gross, count(*) AS orders FROM orders
            WHERE paid_at >= ${dayStart(from)} AND paid_at < ${dayStart(toExclusive)} GROUP BY 1),
  refunded AS (SELECT ${utcDay(sql`created_at`)} AS day, sum(cents) AS refunds FROM order_refunds
            WHERE created_at >= ${dayStart(from)} AND created_at < ${dayStart(toExclusive)} GROUP BY 1),
  started AS (SELECT ${utcDay(sql`created_at`)} AS day, count(*) AS checkouts FROM orders
            WHERE created_at >= ${dayStart(from)} AND created_at < ${dayStart(toExclusive)} GROUP BY 1)
  SELECT days.day, COALESCE(paid.gross, 0)::int AS gross_cents, COALESCE(refunded.refunds, 0)::int AS refunds_cents,
         COALESCE(paid.orders, 0)::int AS orders, COALESCE(started.checkouts, 0)::int AS checkouts
    FROM days LEFT JOIN paid USING (day) LEFT JOIN refunded USING (day) LEFT JOIN started USING (day)`;

const liveKitDays = (from: string, toExclusive: string) => sql`
  SELECT ${utcDay(sql`o.paid_at`)} AS day, i.kit_id, count(*)::int AS units, sum(i.price_cents)::int AS gross_cents
    FROM orders o JOIN order_items i ON i.order_id = o.id
   WHERE o.paid_at >= ${dayStart(from)} AND o.paid_at < ${dayStart(toExclusive)}
   GROUP BY 1, 2`;

/** Writes the missing whole days of [from, to] into sales_days and kit_sales_days, once. */
async function fillSalesDays(db: Reader, from: string, to: string) {
  const { rows } = await db.execute<{ first: string | null; last: string | null }>(sql`
    SELECT min(d)::date::text AS first, max(d)::date::text AS last
      FROM generate_series(${from}::date, ${to}::date, interval '1 day') d
     WHERE NOT EXISTS (SELECT 1 FROM sales_days s WHERE s.day = d::date)`);
  const { first, last } = rows[0] ?? {};
  if (!first || !last) return;
  const end = addDays(last, 1);
  await db.execute(sql`
    WITH kit_rows AS (
      INSERT INTO kit_sales_days (day, kit_id, units, gross_cents)
      SELECT * FROM (${liveKitDays(first, end)}) k
      ON CONFLICT DO NOTHING)
    INSERT INTO sales_days (day, gross_cents, refunds_cents, orders, checkouts)
    SELECT * FROM (${liveDays(first, end)}) s
    ON CONFLICT DO NOTHING`);
}

/**
 * Sales per day over [from, to] (UTC days, both included): whole past days from sales_days (filled
 * the first time they are asked for), the rest counted live; and the kits sold most in the range.
 * The stored days are read first and filled only when some are missing (then read again), so a warm
 * range costs the two reads alone.
 */
export async function salesFigures(
  db: Reader,
  from: string,
  to: string,
  now = Date.now(),
): Promise<{ days: DaySales[]; kits: KitSales[] }> {
  const live = firstLiveDay(now);
  const storedTo = to < live ? to : addDays(live, -1);
  const liveFrom = from > live ? from : live;
  const parts: SQL[] = [];
  const kitParts: SQL[] = [];
  if (from <= storedTo) {
    parts.push(sql`SELECT day, gross_cents, refunds_cents, orders, checkouts FROM sales_days
                    WHERE day >= ${from}::date AND day <= ${storedTo}::date`);
    kitParts.push(sql`SELECT kit_id, units, gross_cents FROM kit_sales_days
                    WHERE day >= ${from}::date AND day <= ${storedTo}::date`);
  }
  if (liveFrom <= to) {
    parts.push(liveDays(liveFrom, addDays(to, 1)));
    kitParts.push(sql`SELECT kit_id, units, gross_cents FROM (${liveKitDays(liveFrom, addDays(to, 1))}) l`);
  }
  const read = () =>
    Promise.all([
      db.execute<{
        day: string;
        gross_cents: number;
        refunds_cents: number;
        orders: number;
        checkouts: number;
      }>(sql`SELECT day::text AS day, gross_cents, refunds_cents, orders, checkouts
             FROM (${sql.join(
               parts.map((part) => sql`(${part})`),
               sql` UNION ALL `,
             )}) x ORDER BY day`),
      db.execute<KitSales>(sql`
      SELECT kit_id, sum(units)::int AS units, sum(gross_cents)::bigint::float8 AS gross_cents
        FROM (${sql.join(kitParts, sql` UNION ALL `)}) k GROUP BY kit_id ORDER BY 3 DESC, kit_id`),
    ]);
  let [{ rows }, kits] = await read();
  if (from <= storedTo) {
    const stored = rows.filter((r) => r.day <= storedTo).length;
    if (stored < daysBetween(from, storedTo).length) {
      await fillSalesDays(db, from, storedTo);
      [{ rows }, kits] = await read();
    }
  }
  return {
    days: rows.map((r) => ({
      date: r.day,
      gross_cents: r.gross_cents,
      refunds_cents: r.refunds_cents,
      orders: r.orders,
      checkouts: r.checkouts,
    })),
    kits: kits.rows,
  };
}

/** Units and gross of every kit ever sold: whole past days from kit_sales_days, the live days counted. */
export async function salesByKit(db: Reader, now = Date.now()): Promise<Map<number, KitSales>> {
  const { rows: first } = await db.execute<{ day: string | null }>(
    sql`SELECT ${utcDay(sql`min(paid_at)`)}::text AS day FROM orders WHERE paid_at IS NOT NULL`,
  );
  const start = first[0]?.day;
  if (!start) return new Map();
  const live = firstLiveDay(now);
  if (start < live) await fillSalesDays(db, start, addDays(live, -1));
  const { rows } = await db.execute<KitSales>(sql`
    SELECT kit_id, sum(units)::int AS units, sum(gross_cents)::bigint::float8 AS gross_cents FROM (
      SELECT kit_id, units, gross_cents FROM kit_sales_days WHERE day < ${live}::date
      UNION ALL
      SELECT kit_id, units, gross_cents FROM (${liveKitDays(live, addDays(today(now), 1))}) l) k
     GROUP BY kit_id`);
  return new Map(rows.map((k) => [k.kit_id, k]));
}

// ---- Receipts ------------------------------------------------------------------------------------

/**
 * Queues a paid order's receipt again, to the buyer's address now, in the caller's transaction.
 * Answers the order and where the receipt goes.
 */
export async function queueReceiptAgain(
  tx: Reader,
  mail: MailContext,
  publicId: string,
): Promise<{ publicId: string; email: string }> {
  const order = await findOrder(tx, publicId);
  if (!order) throw new AppError('not_found', `No order ${publicId.slice(0, 80)}.`);
  if (!order.paid_at) throw new AppError('conflict', `Order ${order.public_id} is not paid: there is no receipt.`);
  const buyer = (await accountsByIds(tx, [order.user_id])).get(order.user_id);
  if (!buyer?.email) throw new AppError('not_found', `No buyer to mail for order ${order.public_id}.`);
  const items = (order.lines ?? []).map((l) => ({ title: l.title, priceCents: l.price_cents }));
  await enqueueMail(tx, {
    ...orderConfirmationMail(mail, buyer, { publicId: order.public_id, items, totalCents: order.total_cents }),
    ref: order.public_id,
  });
  return { publicId: order.public_id, email: buyer.email };
}
