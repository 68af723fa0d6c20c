import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database, Reader } from '../../db/open.ts';
import { orderItems, orderRefunds, orders, paymentEvents } from '../../db/schema/orders.ts';
import { enqueueMail, enqueueMailSql } from '../../integrations/mail/outbox.ts';
import {
  type MailContext,
  orderConfirmationMail,
  ownerSaleMail,
  refundMail,
} from '../../integrations/mail/templates.ts';
import {
  type PaymentCompleted,
  type PaymentReversed,
  type ReceivedEvent,
  readPaddleEvent,
} from '../../integrations/payments/events.ts';
import { createBatchQueue } from '../../lib/batch-queue.ts';
import { mailboxKey } from '../../lib/mailbox.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { type Contact, contactSql } from '../accounts/accounts.service.ts';
import { allKits } from '../catalog/catalog.owner.service.ts';
import { licenceActivationLimits } from '../catalog/catalog.service.ts';
import { connectedGithubSql, queueRepositoryAccessSync } from '../github/github.service.ts';
import { grantSql, ownedKitIds, ownedKitsSql, revokeEntitlements } from '../library/library.service.ts';
import { issueLicenceKeys, lowerLicenceLimits } from '../licences/licences.service.ts';
import {
  type CodeBuyer,
  type LockedCode,
  lockCodesForPayment,
  paidLinesOf,
  redeemCodesSql,
  releaseCodeUse,
  takeCodeUse,
} from './discounts.service.ts';
import { lapseUncoveredUpgrades } from './refunds.service.ts';
import { endSeatsOfEndedLines, tiersHeld } from './seats.service.ts';

const usd = (cents: number) => `USD ${(cents / 100).toFixed(2)}`;

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Outcome = 'duplicate' | 'fulfilled' | 'refunded' | 'flagged' | 'waiting' | 'ignored';
type Result = { outcome: Exclude<Outcome, 'duplicate'>; detail?: string; transactionId?: string };
type Deps = {
  db: Database;
  config: Config;
  mailQueued: () => void;
  /** Called after repository grants or revokes were queued, so this instance's worker starts them now. */
  githubQueued?: () => void;
  /** The shop owners' addresses, told of each paid order ("New sale: ..."): a text[] expression. */
  saleRecipients?: SQL;
  /** Seals the licence keys that paid kits get (each entitlement its key, in the grant's transaction). */
  licenceBox?: SecretBox;
};
type Completed = ReceivedEvent & { event: PaymentCompleted };
type Incoming = { received: Completed; payload: unknown };

/** Rows handed to PostgreSQL as one JSON parameter, whatever their number. */
const rowsOf = (rows: object[], columns: string) =>
  sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(${sql.raw(columns)})`;

const isCompleted = (received: ReceivedEvent): received is Completed => received.event.kind === 'payment_completed';

/**
 * Applies one payment event other than a completed payment (a refund, a chargeback, the rest).
 * The event row (keyed by the provider's event id) is written in the same transaction as its
 * effects: a repeated delivery finds the row and changes nothing, and a failure rolls both back
 * so the provider's retry starts clean. Completed payments take the same care in groups.
 */
async function applyOtherEvent(deps: Deps, received: ReceivedEvent, payload: unknown): Promise<Outcome> {
  const outcome = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(paymentEvents)
      .values({ eventId: received.eventId, eventType: received.eventType, payload, outcome: 'processing' })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (inserted.length === 0) return 'duplicate' as const;
    const { event } = received;
    const result: Result =
      event.kind === 'payment_reversed' ? await reverse(tx, event, deps.config) : { outcome: 'ignored' };
    await tx
      .update(paymentEvents)
      .set({ outcome: result.outcome, detail: result.detail ?? null, transactionId: result.transactionId ?? null })
      .where(eq(paymentEvents.eventId, received.eventId));
    return result.outcome;
  });
  // A refund may have queued repository revokes and the buyer's mail.
  if (outcome === 'refunded') {
    deps.githubQueued?.();
    deps.mailQueued();
  }
  return outcome;
}

/** How many stored event ids an instance keeps in memory to answer repeats without the database. */
const REMEMBERED_EVENTS = 10_000;

/**
 * Payment events as they arrive. Completed payments are applied in groups (`createBatchQueue`): one
 * transaction of four round trips for a whole group instead of nine for each, since a burst of
 * webhooks is bound by those round trips. One group at a time per instance: what arrives while a
 * group is applied forms the next, so a burst makes a few large groups rather than many small
 * ones, each of which costs the same round trips, a pool connection, and (with several instances)
 * a chance to wait on another instance's lock on the same order or event. Other events (refunds,
 * the rest) are applied one by one.
 */
export function createPaymentEventQueue(
  deps: Deps,
  limits = { maxBatch: 50, maxInFlight: 1 },
  remembered = REMEMBERED_EVENTS,
) {
  const completed = createBatchQueue((group: Incoming[]) => applyCompletedEvents(deps, group), limits);
  const applyOne = (received: ReceivedEvent, payload: unknown): Promise<Outcome> =>
    isCompleted(received) ? completed.push({ received, payload }) : applyOtherEvent(deps, received, payload);
  /** Events this instance is applying now, by event id: a repeat waits for that one instead of the database. */
  const applying = new Map<string, Promise<Outcome>>();
  /**
   * The ids of the last events this instance stored (committed), oldest first: a repeat of one
   * (Paddle delivers an event again when an answer was slow or lost, often within the same burst)
   * is answered at once instead of with a transaction of its own that only finds the stored row.
   * Another instance, or this one after a restart, asks the database as before.
   */
  const stored = new Set<string>();
  const remember = (eventId: string) => {
    stored.add(eventId);
    if (stored.size > remembered) stored.delete(stored.values().next().value as string);
  };
  async function apply(received: ReceivedEvent, payload: unknown): Promise<Outcome> {
    if (stored.has(received.eventId)) return 'duplicate';
    const earlier = applying.get(received.eventId);
    if (earlier) {
      // Answered once the first delivery's transaction committed, its event row stored: a repeat.
      // Had it failed (rolled back; the provider retries it), this delivery applies the event itself.
      const stored = await earlier.then(
        () => true,
        () => false,
      );
      return stored ? 'duplicate' : apply(received, payload);
    }
    const applied = applyOne(received, payload);
    applying.set(received.eventId, applied);
    try {
      const outcome = await applied;
      remember(received.eventId);
      return outcome;
    } finally {
      if (applying.get(received.eventId) === applied) applying.delete(received.eventId);
    }
  }
  return { apply };
}

type LockedOrder = {
  id: number;
  public_id: string;
  user_id: number;
  status: string;
  currency: string;
  total_cents: number;
  transaction_id: string | null;
  discount_code_id: number | null;
  buyer: Contact;
  items:
    | {
        id: number;
        kitId: number;
        title: string;
        priceCents: number;
        listPriceCents: number;
        includes: number[];
        paddlePriceId: string;
        /** An upgrade whose credited lines were refunded before this payment. */
        lapsed: boolean;
        /** A licence tier beyond Solo: it adds seats to a kit the buyer may own already. */
        licenceId: number | null;
      }[]
    | null;
  /** The order's kits the buyer owns already (another order paid for them meanwhile). */
  owned: number[];
};

const codeBuyer = (order: LockedOrder): CodeBuyer => ({
  userId: order.user_id,
  mailbox: mailboxKey(order.buyer.email),
});

/** What a group of completed payments changes, written in one statement. */
type Effects = {
  paid: { orderId: number; transactionId: string }[];
  /** With the transaction when the payment itself is valid (kept so a refund of it finds the order). */
  flagged: { orderId: number; detail: string; transactionId?: string }[];
  lines: { id: number; lineId: string }[];
  /** With the licence tier of the line that granted the kit, whose keys take the tier's limit. */
  grants: { userId: number; kitId: number; source: string; licenceId?: number }[];
  /** Paid orders' uses of discount codes. */
  redemptions: (CodeBuyer & { orderId: number; codeId: number })[];
  mails: (ReturnType<typeof orderConfirmationMail> & { ref?: string })[];
  sales: { publicId: string; buyerEmail: string; items: { title: string }[]; totalCents: number }[];
  events: { eventId: string; result: Result }[];
  /** Transactions whose early refund can be applied now that they are paid. */
  waitingFor: string[];
};

/**
 * Applies completed payments in one transaction of four round trips: their event rows stored (a
 * repeated event id, in the group or stored before, is a duplicate) and the orders of the new ones
 * locked in one statement, each checked against what was sold, then every effect in one statement.
 */
async function applyCompletedEvents(deps: Deps, group: Incoming[]): Promise<Outcome[]> {
  const firstIndex = new Map<string, number>();
  group.forEach(({ received }, i) => {
    if (!firstIndex.has(received.eventId)) firstIndex.set(received.eventId, i);
  });
  let githubJobs = 0;
  const outcomes = await deps.db.transaction(async (tx) => {
    // Sorted by event id, so that groups running at once wait for each other in one order.
    const unique = [...firstIndex.values()]
      .map((i) => group[i]!)
      .sort((a, b) => (a.received.eventId < b.received.eventId ? -1 : 1));
    const { fresh, orders, waiting, owners } = await storeAndLock(tx, unique, deps.saleRecipients);
    const todo = group.filter(
      ({ received }, i) => firstIndex.get(received.eventId) === i && fresh.has(received.eventId),
    );
    if (todo.length === 0) return group.map(() => 'duplicate' as const);

    const locked = [...orders.values()];
    const codes = await lockCodesForPayment(
      tx,
      [...new Set(locked.flatMap((o) => (o.discount_code_id === null ? [] : [o.discount_code_id])))],
      locked.map(codeBuyer),
    );
    const effects: Effects = {
      paid: [],
      flagged: [],
      lines: [],
      grants: [],
      redemptions: [],
      mails: [],
      sales: [],
      events: [],
      waitingFor: [],
    };
    for (const { received } of todo) {
      effects.events.push({
        eventId: received.eventId,
        result: decide(received.event, { orders, waiting, codes }, effects, deps.config),
      });
    }
    for (const sale of effects.sales) effects.mails.push(...owners.map((to) => ownerSaleMail(deps.config, to, sale)));
    // Buyers with a GitHub account connected get their kits' repositories (with the grants, or not at all).
    const githubBuyers = await writeEffects(tx, effects, Boolean(deps.config.github));
    if (deps.licenceBox) await issueLicenceKeys(tx, deps.licenceBox, await withTierLimits(tx, effects.grants));
    for (const userId of githubBuyers) githubJobs += await queueRepositoryAccessSync(tx, userId);
    for (const transactionId of effects.waitingFor) await applyWaitingReversals(tx, transactionId, deps.config);
    const results = new Map(effects.events.map((e) => [e.eventId, e.result.outcome]));
    return group.map(({ received }, i) =>
      firstIndex.get(received.eventId) === i ? (results.get(received.eventId) ?? 'duplicate') : 'duplicate',
    );
  });
  if (outcomes.includes('fulfilled')) deps.mailQueued();
  if (githubJobs > 0) deps.githubQueued?.();
  return outcomes;
}

/** The grants with their tiers' activation limits (every tier of the batch read at once). */
async function withTierLimits(tx: Tx, grants: Effects['grants']) {
  const limits = await licenceActivationLimits(
    tx,
    grants.flatMap((g) => (g.licenceId === undefined ? [] : [g.licenceId])),
  );
  return grants.map((g) => ({
    userId: g.userId,
    kitId: g.kitId,
    activationLimit: g.licenceId === undefined ? undefined : limits.get(g.licenceId),
  }));
}

/**
 * One statement: stores the group's events (`fresh`: those not stored before), then locks the
 * orders of the fresh ones (in id order) with their lines and buyers, and reads the refunds
 * waiting for their transactions and the owners to tell of a sale.
 */
async function storeAndLock(tx: Tx, unique: Incoming[], saleRecipients: SQL | undefined) {
  const { rows } = await tx.execute<{
    fresh: string[] | null;
    orders: LockedOrder[] | null;
    waiting: string[] | null;
    owners: string[] | null;
  }>(sql`
    WITH v AS (
      SELECT * FROM ${rowsOf(
        unique.map(({ received, payload }) => ({
          eventId: received.eventId,
          eventType: received.eventType,
          payload,
          orderId: received.event.orderPublicId ?? null,
        })),
        '"eventId" text, "eventType" text, payload jsonb, "orderId" text',
      )}
    ), stored AS (
      INSERT INTO payment_events (event_id, event_type, payload, outcome)
      SELECT v."eventId", v."eventType", v.payload, 'processing' FROM v
      ON CONFLICT DO NOTHING
      RETURNING event_id
    ), locked AS (
      SELECT o.id, o.public_id, o.user_id, o.status, o.currency, o.total_cents, o.transaction_id, o.discount_code_id,
             ${contactSql(sql`o.user_id`)} AS buyer,
             (SELECT json_agg(json_build_object('id', i.id, 'kitId', i.kit_id, 'title', i.title,
                     'priceCents', i.price_cents, 'listPriceCents', i.list_price_cents, 'includes', i.includes,
                     'paddlePriceId', i.paddle_price_id, 'lapsed', i.lapsed_at IS NOT NULL,
                     'licenceId', i.licence_id) ORDER BY i.id)
                FROM order_items i WHERE i.order_id = o.id) AS items,
             ${ownedKitsSql(sql`o.user_id`, sql`ARRAY(SELECT i.kit_id FROM order_items i WHERE i.order_id = o.id)`)} AS owned
        FROM orders o
       WHERE o.public_id IN (SELECT v."orderId" FROM v JOIN stored s ON s.event_id = v."eventId")
       ORDER BY o.id
         FOR UPDATE OF o
    )
    SELECT (SELECT array_agg(event_id) FROM stored) AS fresh,
           (SELECT json_agg(l ORDER BY l.id) FROM locked l) AS orders,
           (SELECT array_agg(DISTINCT p.transaction_id) FROM payment_events p
             WHERE p.outcome = 'waiting'
               AND p.transaction_id = ANY(${sql.param(unique.map((t) => t.received.event.transactionId))}::text[])) AS waiting,
           ${saleRecipients ?? sql`NULL::text[]`} AS owners`);
  const row = rows[0]!;
  const orders = new Map<string, LockedOrder>();
  for (const order of row.orders ?? []) orders.set(order.public_id, order);
  return {
    fresh: new Set(row.fresh ?? []),
    orders,
    waiting: new Set(row.waiting ?? []),
    owners: row.owners ?? [],
  };
}

/**
 * One completed payment against its order (as left by the group's earlier events): the order turns
 * paid only when currency, price ids, quantities, unit prices (before a code) and the amount paid
 * before tax match what was sold (totals differ by the tax Paddle adds), and its discount code
 * still has a use for it; a mismatch flags it. A stale order (another tab, another device) whose
 * kits are all owned by now was paid for nothing: it is flagged for the owner to refund, never
 * answered with an error, since the money is taken and a retry would not change it.
 */
function decide(
  event: PaymentCompleted,
  locked: { orders: Map<string, LockedOrder>; waiting: Set<string>; codes: Map<number, LockedCode> },
  effects: Effects,
  config: Config,
): Result {
  const { orders, waiting, codes } = locked;
  const flagged = (detail: string): Result => ({ outcome: 'flagged', detail, transactionId: event.transactionId });
  if (!event.orderPublicId) return flagged('The transaction carries no order id.');
  const order = orders.get(event.orderPublicId);
  if (!order) return flagged(`No order ${event.orderPublicId}.`);
  if (order.status !== 'pending') {
    if (order.transaction_id === event.transactionId)
      return { outcome: 'ignored', detail: 'Already fulfilled.', transactionId: event.transactionId };
    return flagged(`Order ${order.public_id} is ${order.status}; transaction ${event.transactionId} not applied.`);
  }
  const items = order.items ?? [];
  const problems: string[] = [];
  if (event.currency !== order.currency) problems.push(`currency ${event.currency} instead of ${order.currency}`);
  if (event.lines.length !== items.length) problems.push(`${event.lines.length} lines instead of ${items.length}`);
  for (const item of items) {
    const line = event.lines.find((l) => l.priceId === item.paddlePriceId);
    if (!line) problems.push(`no line for ${item.paddlePriceId}`);
    else {
      if (line.quantity !== 1) problems.push(`quantity ${line.quantity} for ${item.paddlePriceId}`);
      if (line.unitPriceCents !== item.listPriceCents || line.currency !== order.currency)
        problems.push(
          `unit price ${line.unitPriceCents} ${line.currency} for ${item.paddlePriceId}, expected ${item.listPriceCents}`,
        );
    }
  }
  if (event.paidCents !== order.total_cents)
    problems.push(`${event.paidCents} paid before tax instead of ${order.total_cents}`);
  for (const item of items)
    if (item.lapsed) problems.push(`the upgrade price of ${item.title} counted a purchase refunded since`);
  // Last, so a use is taken only by a payment that matches its order.
  const code = order.discount_code_id === null ? undefined : codes.get(order.discount_code_id);
  const codeRefused = problems.length === 0 && code ? takeCodeUse(code, codeBuyer(order)) : null;
  if (codeRefused) problems.push(codeRefused);
  else if (problems.length === 0 && code)
    effects.redemptions.push({ orderId: order.id, codeId: code.id, ...codeBuyer(order) });
  if (problems.length > 0) {
    const detail = `Does not match order ${order.public_id}: ${problems.join('; ')}.`;
    order.status = 'flagged';
    effects.flagged.push({ orderId: order.id, detail });
    return flagged(detail);
  }
  const owned = new Set([
    ...order.owned,
    ...effects.grants.filter((g) => g.userId === order.user_id).map((g) => g.kitId),
  ]);
  const paidTwice = items.filter((i) => i.licenceId === null && owned.has(i.kitId));
  order.transaction_id = event.transactionId;
  if (waiting.has(event.transactionId)) effects.waitingFor.push(event.transactionId);
  if (items.length > 0 && paidTwice.length === items.length) {
    const detail = `Every kit of order ${order.public_id} was already owned when transaction ${event.transactionId} paid it: nothing granted; refund the transaction.`;
    order.status = 'flagged';
    effects.flagged.push({ orderId: order.id, detail, transactionId: event.transactionId });
    return flagged(detail);
  }
  order.status = 'paid';
  effects.paid.push({ orderId: order.id, transactionId: event.transactionId });
  for (const item of items) {
    const lineId = event.lines.find((l) => l.priceId === item.paddlePriceId)?.transactionItemId;
    if (lineId) effects.lines.push({ id: item.id, lineId });
    // A bundle's line grants its kits too.
    for (const kitId of [item.kitId, ...item.includes]) {
      const licenceId = kitId === item.kitId && item.licenceId !== null ? item.licenceId : undefined;
      const granted = effects.grants.find((g) => g.userId === order.user_id && g.kitId === kitId);
      if (!granted) effects.grants.push({ userId: order.user_id, kitId, source: order.public_id, licenceId });
      else if (licenceId !== undefined) granted.licenceId = licenceId;
    }
  }
  effects.mails.push({
    ...orderConfirmationMail(config, order.buyer, { publicId: order.public_id, items, totalCents: order.total_cents }),
    ref: order.public_id,
  });
  effects.sales.push({
    publicId: order.public_id,
    buyerEmail: order.buyer.email,
    items,
    totalCents: order.total_cents,
  });
  const twice = paidTwice.length > 0 ? ` Already owned, paid twice: ${paidTwice.map((i) => i.title).join(', ')}.` : '';
  return { outcome: 'fulfilled', detail: `Order ${order.public_id} paid.${twice}`, transactionId: event.transactionId };
}

/**
 * Every effect of the group in one statement, each change a data-modifying WITH part; answers the
 * buyers of the grants who have a GitHub account connected (when `github`).
 */
async function writeEffects(tx: Tx, effects: Effects, github: boolean): Promise<number[]> {
  const parts: SQL[] = [];
  if (effects.paid.length > 0)
    parts.push(sql`UPDATE orders SET status = 'paid', paid_at = now(), transaction_id = v."transactionId"
      FROM ${rowsOf(effects.paid, '"orderId" int, "transactionId" text')} WHERE orders.id = v."orderId"`);
  if (effects.flagged.length > 0)
    parts.push(sql`UPDATE orders SET status = 'flagged', flagged_reason = v.detail,
             transaction_id = COALESCE(v."transactionId", orders.transaction_id)
      FROM ${rowsOf(effects.flagged, '"orderId" int, detail text, "transactionId" text')}
      WHERE orders.id = v."orderId" AND orders.status = 'pending'`);
  if (effects.lines.length > 0)
    parts.push(sql`UPDATE order_items SET transaction_item_id = v."lineId"
      FROM ${rowsOf(effects.lines, 'id int, "lineId" text')} WHERE order_items.id = v.id`);
  if (effects.grants.length > 0) parts.push(grantSql(effects.grants));
  if (effects.redemptions.length > 0) parts.push(...redeemCodesSql(effects.redemptions));
  if (effects.mails.length > 0) parts.push(enqueueMailSql(effects.mails));
  parts.push(sql`UPDATE payment_events SET outcome = v.outcome, detail = v.detail, transaction_id = v."transactionId"
    FROM ${rowsOf(
      effects.events.map(({ eventId, result }) => ({ eventId, ...result })),
      '"eventId" text, outcome text, detail text, "transactionId" text',
    )} WHERE payment_events.event_id = v."eventId"`);
  const buyers = github && effects.grants.length > 0 ? effects.grants.map((g) => g.userId) : [];
  const { rows } = await tx.execute<{ user_id: number }>(
    sql`WITH ${sql.join(
      parts.map((part, i) => sql`${sql.raw(`effect_${i}`)} AS (${part})`),
      sql`, `,
    )} ${buyers.length > 0 ? connectedGithubSql(buyers) : sql`SELECT NULL::int AS user_id WHERE false`}`,
  );
  return rows.map((r) => r.user_id);
}

/** A refund that arrived before its payment waited for it; the payment is here now. */
async function applyWaitingReversals(tx: Tx, transactionId: string, mail: MailContext) {
  const waiting = await tx
    .select({ eventId: paymentEvents.eventId, payload: paymentEvents.payload })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.outcome, 'waiting'), eq(paymentEvents.transactionId, transactionId)));
  for (const row of waiting) {
    const { event: reversal } = readPaddleEvent(row.payload);
    if (reversal.kind !== 'payment_reversed') continue;
    const result = await reverse(tx, reversal, mail);
    await tx
      .update(paymentEvents)
      .set({ outcome: result.outcome, detail: result.detail ?? null })
      .where(eq(paymentEvents.eventId, row.eventId));
  }
}

/** Any fixed number: refunds of one buyer's orders take their turns (with the buyer's id as second key). */
const BUYER_REFUND_LOCK = 618_033_988;

/**
 * Makes the caller's transaction take its turn with the buyer's refunds, so an owner's grant or
 * revoke and a refund arriving at once each see what the other did.
 */
export async function lockBuyerRefunds(tx: Reader, userId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${BUYER_REFUND_LOCK}, ${userId})`);
}

/**
 * Of the kits of lines just refunded, those no other paid, unrefunded line of the buyer still pays
 * for (a kit paid twice, from a stale second order, stays until both are refunded). Refunds of one
 * buyer wait for each other, so two arriving at once each see the other's lines refunded.
 */
async function kitsNoLongerPaidFor(
  tx: Tx,
  userId: number,
  refunded: { kitId: number; includes: number[] }[],
): Promise<number[]> {
  await lockBuyerRefunds(tx, userId);
  // A bundle's line paid for its kits too.
  const kitIds = [...new Set(refunded.flatMap((i) => [i.kitId, ...i.includes]))];
  const still = await tx
    .select({ kitId: orderItems.kitId, includes: orderItems.includes })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        paidLinesOf(userId),
        sql`(${inArray(orderItems.kitId, kitIds)} OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(${orderItems.includes}) e
              WHERE e.value::int = ANY(${sql.param(kitIds)}::int[])))`,
      ),
    );
  const paidFor = new Set(still.flatMap((r) => [r.kitId, ...r.includes]));
  return kitIds.filter((id) => !paidFor.has(id));
}

/**
 * An approved refund or chargeback: each line named gives back its amount (before tax), recorded
 * once per adjustment, so a repeated or updated adjustment adds nothing. A line given back in full
 * loses its kits, a partial refund keeps them; upgrades that counted the lines lapse when what stays
 * paid no longer covers their credit (`lapseUncoveredUpgrades`). Kits go only when nothing else the
 * buyer paid for or was granted keeps them.
 */
async function reverse(tx: Tx, event: PaymentReversed, mail: MailContext): Promise<Result> {
  const [buyer] = await tx
    .select({ userId: orders.userId })
    .from(orders)
    .where(eq(orders.transactionId, event.transactionId));
  if (!buyer)
    return {
      outcome: 'waiting',
      detail: 'The payment this refers to has not arrived yet.',
      transactionId: event.transactionId,
    };
  // The buyer's turn first, then the order: a refund may lock the buyer's other orders (upgrades it
  // ends), so two refunds of one buyer never hold each other's orders.
  await lockBuyerRefunds(tx, buyer.userId);
  const [order] = await tx.select().from(orders).where(eq(orders.transactionId, event.transactionId)).for('update');
  if (!order) throw new Error(`The order of transaction ${event.transactionId} went away.`);
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  const asked = new Map<number, number | 'full'>();
  for (const item of items) {
    const named = event.items.find((i) => i.itemId === item.transactionItemId);
    if (event.whole) asked.set(item.id, 'full');
    else if (named && item.transactionItemId) asked.set(item.id, named.cents);
  }
  const wanted = items.flatMap((item) => {
    const cents = asked.get(item.id);
    if (cents === undefined || item.refundedAt) return [];
    const open = item.priceCents - item.refundedCents;
    return [{ itemId: item.id, cents: cents === 'full' ? open : Math.min(cents, open) }];
  });
  const recorded =
    wanted.length === 0
      ? []
      : await tx
          .insert(orderRefunds)
          .values(wanted.map((w) => ({ adjustmentId: event.adjustmentId, ...w })))
          .onConflictDoNothing()
          .returning({ itemId: orderRefunds.itemId, cents: orderRefunds.cents });
  const changed: typeof items = [];
  for (const { itemId, cents } of recorded) {
    const item = items.find((i) => i.id === itemId)!;
    const full = asked.get(itemId) === 'full' || item.refundedCents + cents >= item.priceCents;
    const [updated] = await tx
      .update(orderItems)
      .set({
        refundedCents: full ? item.priceCents : item.refundedCents + cents,
        ...(full ? { refundedAt: sql`now()` } : {}),
      })
      .where(eq(orderItems.id, itemId))
      .returning();
    items[items.indexOf(item)] = updated!;
    changed.push(updated!);
  }
  const refundedInFull = changed.filter((i) => i.refundedAt);
  const lapsed = await lapseUncoveredUpgrades(
    tx,
    order.userId,
    changed.map((i) => i.id),
  );
  const lost = [
    ...refundedInFull.map((i) => ({ kitId: i.kitId, includes: i.includes })),
    ...lapsed.kitIds.map((kitId) => ({ kitId, includes: [] })),
  ];
  // A Team line refunded in full, or lapsed, takes every seat of it with it.
  if (refundedInFull.some((i) => i.licenceId !== null) || lapsed.kitIds.length > 0)
    await endSeatsOfEndedLines(tx, order.userId);
  let revoked: number[] = [];
  if (lost.length > 0) {
    revoked = await revokeEntitlements(tx, order.userId, await kitsNoLongerPaidFor(tx, order.userId, lost));
    await queueRepositoryAccessSync(tx, order.userId);
    // A Team tier refunded or lapsed: the buyer's key of its kit goes back to the limit of the tier
    // they still hold (Solo's when only Solo, a grant or nothing is left).
    const kitIds = [...new Set(lost.flatMap((l) => [l.kitId, ...l.includes]))];
    await lowerLicenceLimits(tx, order.userId, await tiersHeld(tx, order.userId, kitIds));
  }
  const whole = items.every((i) => i.refundedAt);
  const some = items.some((i) => i.refundedCents > 0);
  if (whole || some)
    await tx
      .update(orders)
      .set({ status: whole ? 'refunded' : 'partially_refunded' })
      .where(eq(orders.id, order.id));
  // A refund in full gives the order's use of its discount code back.
  if (whole && order.discountCodeId !== null) await releaseCodeUse(tx, order.id);
  // Only an adjustment recorded now mails: a repeated or updated one changed nothing.
  if (recorded.length > 0)
    await mailRefund(tx, mail, {
      order,
      items,
      changed,
      cents: recorded.reduce((sum, r) => sum + r.cents, 0),
      revoked,
      endedUpgrades: lapsed.titles,
    });
  const what = changed.map((i) =>
    i.refundedAt ? i.title : `${i.title} (${usd(i.refundedCents)} of ${usd(i.priceCents)} refunded, kept)`,
  );
  const ended = lapsed.titles.length > 0 ? `; upgrade ended: ${lapsed.titles.join(', ')}` : '';
  return {
    outcome: 'refunded',
    detail: `${event.reason}: ${what.join(', ') || 'nothing new'}${ended}`,
    transactionId: event.transactionId,
  };
}

/**
 * Tells the buyer what a refund changed, in the refund's transaction: the amount, the lines, the
 * kits that left their library, those of the order they keep, and an upgrade it ended.
 */
async function mailRefund(
  tx: Tx,
  mail: MailContext,
  refund: {
    order: typeof orders.$inferSelect;
    items: (typeof orderItems.$inferSelect)[];
    changed: (typeof orderItems.$inferSelect)[];
    cents: number;
    revoked: number[];
    endedUpgrades: string[];
  },
): Promise<void> {
  const { order } = refund;
  const { rows } = await tx.execute<{ buyer: Contact | null }>(
    sql`SELECT ${contactSql(sql`${order.userId}`)} AS buyer`,
  );
  const buyer = rows[0]?.buyer;
  // An erased account's address is in the reserved .invalid domain: nobody to tell.
  if (!buyer || buyer.email.endsWith('.invalid')) return;
  const orderKits = [...new Set(refund.items.flatMap((i) => [i.kitId, ...i.includes]))];
  const owned = await ownedKitIds(tx, order.userId, orderKits);
  const titles = new Map((await allKits(tx)).map((k) => [k.id, k.title]));
  const title = (kitId: number) => titles.get(kitId) ?? `kit ${kitId}`;
  await enqueueMail(tx, {
    ...refundMail(mail, buyer, {
      publicId: order.publicId,
      lines: refund.changed.map((i) => ({
        title: i.title,
        refundedCents: i.refundedCents,
        priceCents: i.priceCents,
        full: i.refundedAt !== null,
      })),
      cents: refund.cents,
      removed: refund.revoked.map(title),
      kept: orderKits.filter((id) => owned.has(id)).map(title),
      endedUpgrades: refund.endedUpgrades,
    }),
    ref: order.publicId,
  });
}
