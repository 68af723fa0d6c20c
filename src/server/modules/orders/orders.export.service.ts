import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import type { OrderBusiness } from '../../db/schema/orders.ts';
import { type CsvNumber, csvLine } from '../../lib/csv.ts';
import { dayStart } from '../../lib/days.ts';

/**
 * The owner's accounting export: one row per paid order and one per refund in a range of UTC days,
 * read in pages by key (the last row's time and id) rather than by offset, so each page is one index
 * range however far the export has gone, and only a page is ever in memory.
 */

export const EXPORT_COLUMNS = [
  'date',
  'order_number',
  'buyer_email',
  'country',
  'company',
  'vat_id',
  'kits',
  'net',
  'discount',
  'tax',
  'gross',
  'currency',
  'transaction_id',
  'status',
] as const;

export const EXPORT_PAGE_ROWS = 2_000;

type OrderRow = {
  id: number;
  public_id: string;
  user_id: number;
  status: string;
  currency: string;
  total_cents: number;
  discount_cents: number;
  transaction_id: string | null;
  business: OrderBusiness | null;
  at: string;
  kits: string | null;
  tax_cents: string | null;
};

type RefundRow = {
  adjustment_id: string;
  item_id: number;
  at: string;
  cents: number;
  title: string;
  public_id: string;
  user_id: number;
  currency: string;
  transaction_id: string | null;
  business: OrderBusiness | null;
};

/** Buyers' e-mails by account id, for one page (the accounts feature's lookup, handed in). */
export type EmailsOf = (userIds: number[]) => Promise<Map<number, { email: string }>>;

/** An amount in dollars with two decimals, as a number cell. */
const dollars = (cents: number): CsvNumber => ({ number: (cents / 100).toFixed(2) });
/** PostgreSQL's timestamptz text (`2026-11-29 04:21:04.123456+00`) as ISO 8601 in UTC, to the second. */
const isoSecond = (at: string) => `${new Date(at).toISOString().slice(0, 19)}Z`;

/** A read started ahead: if the download ends first, its failure (a closed pool) is nobody's to report. */
function ahead<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}

async function orderPage(
  db: Reader,
  from: string,
  toExclusive: string,
  after: { at: string; id: number } | null,
  limit: number,
) {
  const { rows } = await db.execute<OrderRow>(sql`
    SELECT o.id, o.public_id, o.user_id, o.status, o.currency, o.total_cents, o.discount_cents, o.transaction_id,
           o.business, o.paid_at::text AS at,
           (SELECT string_agg(i.title, '; ' ORDER BY i.id) FROM order_items i WHERE i.order_id = o.id) AS kits,
           paid.tax_cents
      FROM orders o
      LEFT JOIN LATERAL (
        SELECT CASE WHEN e.payload #>> '{data,details,totals,tax}' ~ '^-?[0-9]{1,12}$'
                    THEN e.payload #>> '{data,details,totals,tax}' END AS tax_cents
          FROM payment_events e
         WHERE e.transaction_id = o.transaction_id AND e.event_type = 'transaction.completed'
         ORDER BY e.received_at LIMIT 1) paid ON true
     WHERE o.paid_at >= ${dayStart(from)} AND o.paid_at < ${dayStart(toExclusive)}
       ${after ? sql`AND (o.paid_at, o.id) > (${after.at}::timestamptz, ${after.id})` : sql``}
     ORDER BY o.paid_at, o.id
     LIMIT ${limit}`);
  return rows;
}

async function refundPage(
  db: Reader,
  from: string,
  toExclusive: string,
  after: { at: string; itemId: number; adjustmentId: string } | null,
  limit: number,
) {
  const { rows } = await db.execute<RefundRow>(sql`
    SELECT r.adjustment_id, r.item_id, r.created_at::text AS at, r.cents, i.title,
           o.public_id, o.user_id, o.currency, o.transaction_id, o.business
      FROM order_refunds r JOIN order_items i ON i.id = r.item_id JOIN orders o ON o.id = i.order_id
     WHERE r.created_at >= ${dayStart(from)} AND r.created_at < ${dayStart(toExclusive)}
       ${after ? sql`AND (r.created_at, r.item_id, r.adjustment_id) > (${after.at}::timestamptz, ${after.itemId}, ${after.adjustmentId})` : sql``}
     ORDER BY r.created_at, r.item_id, r.adjustment_id
     LIMIT ${limit}`);
  return rows;
}

const businessCells = (b: OrderBusiness | null) => [b?.country ?? null, b?.company_name ?? null, b?.vat_id ?? null];

/**
 * The export as CSV text, chunk by chunk (the header, then one chunk per page): orders by the time
 * they were paid, then refunds by the time they were approved, a refund's lines of one adjustment in
 * one row with negative amounts. Tax is what the provider's payment event says (0 in the sandbox);
 * refunds' amounts are before tax, as the shop keeps them.
 */
export async function* ordersCsv(
  db: Reader,
  emailsOf: EmailsOf,
  from: string,
  toExclusive: string,
  pageRows = EXPORT_PAGE_ROWS,
) {
  yield csvLine([...EXPORT_COLUMNS]);
  // Each page's buyers are looked up as soon as the page arrives, and the next page is asked for
  // then too: the database reads it while this one's e-mails come and its rows are written out. At
  // most two pages are held.
  const fetchPage = async (after: { at: string; id: number } | null) => {
    const rows = await orderPage(db, from, toExclusive, after, pageRows);
    return { rows, emails: ahead(emailsOf([...new Set(rows.map((r) => r.user_id))])) };
  };
  let next: Promise<{ rows: OrderRow[]; emails: ReturnType<EmailsOf> }> | null = ahead(fetchPage(null));
  while (next) {
    const page: { rows: OrderRow[]; emails: ReturnType<EmailsOf> } = await next;
    const { rows } = page;
    const last = rows[rows.length - 1];
    next = last && rows.length === pageRows ? ahead(fetchPage({ at: last.at, id: last.id })) : null;
    if (rows.length === 0) break;
    const emails = await page.emails;
    let chunk = '';
    for (const r of rows) {
      const tax = r.tax_cents === null ? 0 : Number(r.tax_cents);
      chunk += csvLine([
        isoSecond(r.at),
        r.public_id,
        emails.get(r.user_id)?.email ?? '',
        ...businessCells(r.business),
        r.kits ?? '',
        dollars(r.total_cents),
        dollars(r.discount_cents),
        dollars(tax),
        dollars(r.total_cents + tax),
        r.currency,
        r.transaction_id,
        r.status,
      ]);
    }
    yield chunk;
  }

  // Refund rows: the lines of one adjustment of one order are gathered into one row. They share the
  // time they were recorded, so a group is complete once a later time is read (or the rows end).
  type Group = { first: RefundRow; titles: string[]; cents: number };
  let open = new Map<string, Group>();
  let openAt: string | null = null;
  const flush = async () => {
    const groups = [...open.values()];
    open = new Map();
    if (groups.length === 0) return '';
    const emails = await emailsOf([...new Set(groups.map((g) => g.first.user_id))]);
    return groups
      .map(({ first: r, titles, cents }) =>
        csvLine([
          isoSecond(r.at),
          r.public_id,
          emails.get(r.user_id)?.email ?? '',
          ...businessCells(r.business),
          titles.join('; '),
          dollars(-cents),
          dollars(0),
          dollars(0),
          dollars(-cents),
          r.currency,
          r.transaction_id,
          'refund',
        ]),
      )
      .join('');
  };
  let afterRefund: { at: string; itemId: number; adjustmentId: string } | null = null;
  for (;;) {
    const rows = await refundPage(db, from, toExclusive, afterRefund, pageRows);
    let chunk = '';
    for (const r of rows) {
      if (openAt !== null && r.at !== openAt) chunk += await flush();
      openAt = r.at;
      const key = `${r.public_id} ${r.adjustment_id}`;
      const group = open.get(key) ?? { first: r, titles: [], cents: 0 };
      group.titles.push(r.title);
      group.cents += r.cents;
      open.set(key, group);
    }
    if (rows.length < pageRows) {
      chunk += await flush();
      if (chunk) yield chunk;
      break;
    }
    if (chunk) yield chunk;
    const last = rows[rows.length - 1]!;
    afterRefund = { at: last.at, itemId: last.item_id, adjustmentId: last.adjustment_id };
  }
}
