import { and, asc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { centsToDollars, parseDollarsToCents } from '../../../common/money.ts';
import { DiscountCreateSchema, type OwnerDiscount } from '../../../common/schemas/discounts.ts';
import { dayIn, isDay, lastDayIn, nextDay, startOfDay } from '../../../common/shop-days.ts';
import type { Database } from '../../db/open.ts';
import { discountCodes, discountRedemptions, orderItems, orders } from '../../db/schema/orders.ts';
import { AppError } from '../../http/errors.ts';
import { mailboxKey } from '../../lib/mailbox.ts';
import { findEmail } from '../accounts/accounts.service.ts';
import { allKits } from '../catalog/catalog.owner.service.ts';

/** Discount codes: what the owner creates, pauses and reads, and what the cart checks a code against. */

export type DiscountCode = typeof discountCodes.$inferSelect;
type NewDiscount = z.output<typeof DiscountCreateSchema>;
type Db = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

/**
 * How long a checkout holds a limited code for its buyer after they last opened it: while it holds,
 * others cannot take the last use. Long enough to pay (card details, a bank's confirmation), short
 * enough that abandoned checkouts do not keep a code from everyone. Only the buyer's latest checkout
 * holds (a newer one supersedes it). A payment arriving after its hold ended still redeems the
 * code if a use is left.
 */
export const CODE_HOLD_MINUTES = 15;

export const codeKey = (code: string) => code.trim().toLowerCase();

/**
 * A typed start or end as the instant stored: a day in the shop's zone `timeZone` starts at its
 * first moment, and an end day is included whole (stored as the next day's first moment, since
 * stored ends are exclusive); a moment is kept as given.
 */
export function discountInstant(value: string, edge: 'starts' | 'ends', timeZone: string): Date {
  if (!isDay(value)) return new Date(value);
  return startOfDay(edge === 'ends' ? nextDay(value) : value, timeZone);
}

export function ownerDiscount(row: DiscountCode): OwnerDiscount {
  return {
    code: row.code,
    percent_off: row.percentOff,
    amount_off: row.amountOffCents === null ? null : centsToDollars(row.amountOffCents),
    kit_ids: row.kitIds,
    starts_at: row.startsAt?.toISOString() ?? null,
    ends_at: row.endsAt?.toISOString() ?? null,
    max_redemptions: row.maxRedemptions,
    redemptions: row.redemptions,
    once_per_customer: row.oncePerCustomer,
    active: row.active,
    paddle_discount_id: row.paddleDiscountId,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A new code; the same code in any case is a 409, a kit the shop never had a 422. With Paddle, a
 * code names the Paddle discount it mirrors (Paddle.js applies that one at checkout).
 */
export async function createDiscount(
  db: Db,
  input: NewDiscount,
  options: { paddle: boolean; timeZone: string },
): Promise<DiscountCode> {
  if (options.paddle && !input.paddle_discount_id)
    throw new AppError(
      'invalid_data',
      'paddle_discount_id: required with PAYMENT_PROVIDER=paddle (create the discount in Paddle first).',
    );
  if (input.kit_ids) {
    const known = new Set((await allKits(db)).map((k) => k.id));
    const unknown = input.kit_ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new AppError('invalid_data', `kit_ids: There is no kit ${unknown.join(', ')}.`);
  }
  const startsAt = input.starts_at ? discountInstant(input.starts_at, 'starts', options.timeZone) : null;
  const endsAt = input.ends_at ? discountInstant(input.ends_at, 'ends', options.timeZone) : null;
  if (startsAt && endsAt && endsAt <= startsAt)
    throw new AppError('invalid_data', 'ends_at: The end must be after the start.');
  const [row] = await db
    .insert(discountCodes)
    .values({
      code: input.code,
      codeKey: codeKey(input.code),
      percentOff: input.percent_off ?? null,
      amountOffCents: input.amount_off == null ? null : parseDollarsToCents(String(input.amount_off)),
      kitIds: input.kit_ids ? [...new Set(input.kit_ids)].sort((a, b) => a - b) : null,
      startsAt,
      endsAt,
      maxRedemptions: input.max_redemptions ?? null,
      oncePerCustomer: input.once_per_customer ?? false,
      paddleDiscountId: input.paddle_discount_id ?? null,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError('conflict', `code: A code ${input.code} exists already (codes ignore case).`);
  return row;
}

export async function listDiscounts(db: Db): Promise<DiscountCode[]> {
  return db.select().from(discountCodes).orderBy(asc(discountCodes.createdAt), asc(discountCodes.id));
}

export async function findDiscount(db: Db, code: string): Promise<DiscountCode | undefined> {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(eq(discountCodes.codeKey, codeKey(code)));
  return row;
}

/** Pauses (`false`) or resumes a code; undefined when there is no such code. */
export async function setDiscountActive(db: Db, code: string, active: boolean) {
  const [row] = await db
    .update(discountCodes)
    .set({ active })
    .where(eq(discountCodes.codeKey, codeKey(code)))
    .returning();
  return row;
}

/**
 * Why a code cannot be used now, in the buyer's words, or null when it can. `held` counts other
 * buyers' open checkouts with it (at checkout only), so the last uses are not sold twice. Days are
 * named in the shop's zone `timeZone`; an end names the last day the code worked.
 */
export function codeRefusal(code: DiscountCode, now: Date, timeZone: string, held = 0): AppError | null {
  if (!code.active) return new AppError('invalid_data', `The code ${code.code} is paused.`);
  if (code.startsAt && now < code.startsAt)
    return new AppError('invalid_data', `The code ${code.code} is valid from ${dayIn(code.startsAt, timeZone)}.`);
  if (code.endsAt && now >= code.endsAt)
    return new AppError('invalid_data', `The code ${code.code} expired on ${lastDayIn(code.endsAt, timeZone)}.`);
  if (code.maxRedemptions !== null && code.redemptions + held >= code.maxRedemptions)
    return new AppError('conflict', `The code ${code.code} has been used up.`);
  return null;
}

/** The code a buyer typed, usable now, or the 4xx that says why not (unknown, paused, expired, used up, used by them). */
export async function usableCode(
  db: Db,
  text: string,
  userId: number | null,
  timeZone: string,
  now = new Date(),
): Promise<DiscountCode> {
  const code = await findDiscount(db, text);
  if (!code) throw new AppError('invalid_data', `There is no discount code ${text.trim().slice(0, 40)}.`);
  const refusal = codeRefusal(code, now, timeZone);
  if (refusal) throw refusal;
  if (userId !== null && code.oncePerCustomer && (await hasRedeemed(db, code.id, userId)))
    throw new AppError('conflict', `You have used the code ${code.code} already.`);
  return code;
}

/** Whether this buyer redeemed the code, from this account or another at the same mailbox. */
async function hasRedeemed(db: Db, codeId: number, userId: number) {
  const email = await findEmail(db, userId);
  const sameBuyer = eq(discountRedemptions.userId, userId);
  const rows = await db
    .select({ orderId: discountRedemptions.orderId })
    .from(discountRedemptions)
    .where(
      and(
        eq(discountRedemptions.codeId, codeId),
        email === null ? sameBuyer : or(sameBuyer, eq(discountRedemptions.mailbox, mailboxKey(email))),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * At checkout, in the transaction that opens the order: locks the code's row (checkouts with one
 * code take turns) and refuses it when its paid uses plus other buyers' holds (their latest
 * checkouts with it, opened in the last CODE_HOLD_MINUTES) reach the limit. The order opened after
 * this in the same transaction is this buyer's hold (`holdCheckoutCode`).
 */
export async function holdCode(tx: Db, codeId: number, userId: number, timeZone: string): Promise<DiscountCode> {
  const [code] = await tx.select().from(discountCodes).where(eq(discountCodes.id, codeId)).for('update');
  if (!code) throw new AppError('invalid_data', 'This discount code no longer exists.');
  // Counted after the lock: the statement sees every checkout committed before it was granted.
  const { rows } = await tx.execute<{ held: number }>(sql`
    SELECT count(DISTINCT o.user_id)::int AS held FROM ${orders} o
     WHERE o.discount_code_id = ${codeId} AND o.status = 'pending' AND o.user_id <> ${userId}
       AND o.code_held_at > now() - make_interval(mins => ${CODE_HOLD_MINUTES})`);
  const refusal = codeRefusal(code, new Date(), timeZone, code.maxRedemptions === null ? 0 : rows[0]!.held);
  if (refusal) throw refusal;
  if (code.oncePerCustomer && (await hasRedeemed(tx, code.id, userId)))
    throw new AppError('conflict', `You have used the code ${code.code} already.`);
  return code;
}

/**
 * Makes the checkout just opened (or opened again) the buyer's only hold: it holds its code (if
 * any) from now, and the buyer's other open checkouts, superseded by it, hold theirs no longer.
 * They can still be paid; their payments redeem a code only if a use is left.
 */
export async function holdCheckoutCode(tx: Db, orderId: number, userId: number): Promise<void> {
  await tx.execute(sql`
    UPDATE ${orders} SET code_held_at = CASE WHEN id = ${orderId} AND discount_code_id IS NOT NULL THEN now() END
     WHERE user_id = ${userId} AND status = 'pending' AND (id = ${orderId} OR code_held_at IS NOT NULL)`);
}

/** A code as a payment finds it, locked: uses left are counted down as the group's payments take them. */
export type LockedCode = {
  id: number;
  code: string;
  maxRedemptions: number | null;
  redemptions: number;
  oncePerCustomer: boolean;
  /** Buyers (of those paying now) who redeemed it before. */
  redeemedBy: Set<number>;
  /** Their mailboxes (`mailboxKey`) that redeemed it before, from any account. */
  redeemedMailboxes: Set<string>;
};

/** Who pays an order, as "once per customer" knows them: the account and its mailbox (`mailboxKey`). */
export type CodeBuyer = { userId: number; mailbox: string | null };

/**
 * The codes of orders being paid, locked (in id order, after their orders) for the rest of the
 * payment's transaction: a use is counted only while its row is held, so no two payments take the
 * last one.
 */
export async function lockCodesForPayment(tx: Db, codeIds: number[], buyers: CodeBuyer[]) {
  const codes = new Map<number, LockedCode>();
  if (codeIds.length === 0) return codes;
  const userIds = [...new Set(buyers.map((b) => b.userId))];
  const mailboxes = [...new Set(buyers.flatMap((b) => (b.mailbox === null ? [] : [b.mailbox])))];
  const { rows } = await tx.execute<{
    id: number;
    code: string;
    max_redemptions: number | null;
    redemptions: number;
    once_per_customer: boolean;
    redeemed_by: number[] | null;
    redeemed_mailboxes: string[] | null;
  }>(sql`
    SELECT c.id, c.code, c.max_redemptions, c.redemptions, c.once_per_customer,
           (SELECT array_agg(DISTINCT r.user_id) FROM ${discountRedemptions} r
             WHERE r.code_id = c.id AND r.user_id = ANY(${sql.param(userIds)}::int[])) AS redeemed_by,
           (SELECT array_agg(DISTINCT r.mailbox) FROM ${discountRedemptions} r
             WHERE r.code_id = c.id AND r.mailbox = ANY(${sql.param(mailboxes)}::text[])) AS redeemed_mailboxes
      FROM ${discountCodes} c WHERE c.id = ANY(${sql.param(codeIds)}::int[]) ORDER BY c.id FOR UPDATE OF c`);
  for (const r of rows)
    codes.set(r.id, {
      id: r.id,
      code: r.code,
      maxRedemptions: r.max_redemptions,
      redemptions: r.redemptions,
      oncePerCustomer: r.once_per_customer,
      redeemedBy: new Set(r.redeemed_by ?? []),
      redeemedMailboxes: new Set(r.redeemed_mailboxes ?? []),
    });
  return codes;
}

/** Takes one use of a locked code for a buyer's paid order, or says why it cannot. */
export function takeCodeUse(code: LockedCode, buyer: CodeBuyer): string | null {
  if (code.maxRedemptions !== null && code.redemptions >= code.maxRedemptions)
    return `the discount code ${code.code} was used up before this payment arrived`;
  if (code.oncePerCustomer && code.redeemedBy.has(buyer.userId))
    return `the buyer has used the discount code ${code.code} already`;
  if (code.oncePerCustomer && buyer.mailbox !== null && code.redeemedMailboxes.has(buyer.mailbox))
    return `the buyer's mailbox has used the discount code ${code.code} already (from another account)`;
  code.redemptions++;
  code.redeemedBy.add(buyer.userId);
  if (buyer.mailbox !== null) code.redeemedMailboxes.add(buyer.mailbox);
  return null;
}

/**
 * Paid orders' uses of codes as two statements a caller runs as parts of one (fulfilment's single
 * write): a row for each order, and each code's count raised by its uses.
 */
export function redeemCodesSql(uses: (CodeBuyer & { orderId: number; codeId: number })[]): SQL[] {
  const perCode = new Map<number, number>();
  for (const use of uses) perCode.set(use.codeId, (perCode.get(use.codeId) ?? 0) + 1);
  const counts = [...perCode].map(([codeId, n]) => ({ codeId, n }));
  return [
    sql`INSERT INTO ${discountRedemptions} (order_id, code_id, user_id, mailbox)
      SELECT v."orderId", v."codeId", v."userId", v.mailbox
        FROM jsonb_to_recordset(${JSON.stringify(uses)}::jsonb) AS v("orderId" int, "codeId" int, "userId" int, mailbox text)`,
    sql`UPDATE ${discountCodes} SET redemptions = ${discountCodes}.redemptions + v.n
      FROM jsonb_to_recordset(${JSON.stringify(counts)}::jsonb) AS v("codeId" int, n int)
     WHERE ${discountCodes}.id = v."codeId"`,
  ];
}

/** A refunded order gives its use of a code back (the code's row locked by the update). */
export async function releaseCodeUse(tx: Db, orderId: number): Promise<void> {
  await tx.execute(sql`WITH released AS (
      DELETE FROM ${discountRedemptions} WHERE order_id = ${orderId} RETURNING code_id)
    UPDATE ${discountCodes} c SET redemptions = c.redemptions - 1 FROM released WHERE c.id = released.code_id`);
}

/**
 * The buyer's paid lines not refunded in full nor lapsed (of orders paid in full or in part): what
 * they paid for and still own.
 */
export const paidLinesOf = (userId: number) =>
  and(
    eq(orders.userId, userId),
    inArray(orders.status, ['paid', 'partially_refunded']),
    isNull(orderItems.refundedAt),
    isNull(orderItems.lapsedAt),
  )!;

/**
 * The catalog's own codes (`discounts.json` beside `kits/`, the demo's launch code): each created
 * once, when no code of that name exists; an owner's later change (a pause) is never undone.
 * With Paddle, a code without its Paddle discount is left out (it would charge the full price).
 * Answers the codes created and those left out, with why.
 */
export async function importCatalogDiscounts(
  db: Database,
  entries: unknown,
  options: { paddle: boolean; timeZone: string },
) {
  const created: string[] = [];
  const skipped: string[] = [];
  for (const [i, entry] of (Array.isArray(entries) ? entries : []).entries()) {
    const input = DiscountCreateSchema.safeParse(entry);
    if (!input.success) {
      const issue = input.error.issues[0]!;
      skipped.push(`discounts.json: ${i}.${issue.path.join('.')}: ${issue.message}`);
      continue;
    }
    if (await findDiscount(db, input.data.code)) continue;
    try {
      created.push((await createDiscount(db, input.data, options)).code);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      skipped.push(`discounts.json: ${input.data.code}: ${error.message}`);
    }
  }
  return { created, skipped };
}

/** The code an order was priced with and what it took off (dollars), for the owner's order page. */
export async function orderDiscount(db: Db, publicId: string): Promise<{ code: string; amount: number } | null> {
  const [row] = await db
    .select({ code: discountCodes.code, cents: orders.discountCents })
    .from(orders)
    .innerJoin(discountCodes, eq(discountCodes.id, orders.discountCodeId))
    .where(eq(orders.publicId, publicId));
  return row ? { code: row.code, amount: centsToDollars(row.cents) } : null;
}
