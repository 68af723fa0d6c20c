import type { FastifyInstance, FastifyRequest } from 'fastify';
import { centsToDollars, roundDollars } from '../../../common/money.ts';
import { OWNER_SETUP_MESSAGE, OWNER_STEP_UP_MESSAGE } from '../../../common/schemas/account-security.ts';
import {
  CustomersQuerySchema,
  GrantSchema,
  KitVisibilitySchema,
  MessagesQuerySchema,
  OrdersQuerySchema,
  type OwnerCustomer,
  type OwnerCustomerDetail,
  type OwnerKit,
  type OwnerOrder,
  type OwnerOrderDetail,
  type OwnerSummary,
  PageQuerySchema,
  RefundSchema,
  ReplySchema,
  SummaryQuerySchema,
} from '../../../common/schemas/owner.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import { enqueueMail, mailsAbout } from '../../integrations/mail/outbox.ts';
import { messageReplyMail, orderConfirmationMail } from '../../integrations/mail/templates.ts';
import { PaddleApiError, requestRefund } from '../../integrations/payments/paddle-api.ts';
import { sandboxCustomerId, sandboxRefundApproved } from '../../integrations/payments/sandbox.ts';
import { signPaddleBody } from '../../integrations/payments/signature.ts';
import { addDays, today } from '../../lib/days.ts';
import {
  accountOf,
  accountsByIds,
  accountsMatchingSql,
  countNewAccounts,
  listAccounts,
} from '../accounts/accounts.owner.service.ts';
import { endAllSessions } from '../accounts/sessions.service.ts';
import { ownerSessionGate } from '../accounts/two-step.service.ts';
import {
  allKits,
  allKitsWithNewestVersion,
  kitById,
  kitIdsMatching,
  setKitHidden,
} from '../catalog/catalog.owner.service.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import { failedRepositoryJobs, queueRepositoryAccessSync } from '../github/github.service.ts';
import { downloadsOf, grantKit, holdingsOf, libraryStatsByKit, revokeGrant } from '../library/library.owner.service.ts';
import {
  findMessage,
  listMessages,
  markAnswered,
  subscribersCsvFile,
  subscribersPage,
} from '../messages/messages.owner.service.ts';
import { orderDiscount } from '../orders/discounts.service.ts';
import { lockBuyerRefunds } from '../orders/fulfilment.service.ts';
import {
  buyerTotals,
  findOrder,
  listOrders,
  type OwnerOrderRow,
  ordersOfBuyer,
  paidLinesOf,
  paymentEventsOf,
  salesByKit,
  salesFigures,
} from '../orders/orders.owner.service.ts';
import { planRefund, upgradesCrediting } from '../orders/refunds.service.ts';
import { registerDiscountRoutes } from './owner.discounts.routes.ts';
import { activityPage, findOwner, type Owner, recordActivity } from './owner.service.ts';

export type OwnerDeps = {
  db: Database;
  config: Config;
  catalog: Catalog;
  mailQueued: () => void;
  /** Called after repository grants or revokes were queued (GitHub delivery on), so they start now. */
  githubQueued?: () => void;
  /** The sandbox's signed webhook delivery (absent with Paddle), so its refunds take the real path. */
  sandboxWebhook?: {
    secret: string;
    deliver: (body: string, signature: string) => Promise<{ statusCode: number; body: string }>;
  };
};

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const owners = new WeakMap<FastifyRequest, Owner>();
const ownerOf = (request: FastifyRequest) => owners.get(request)!;

// ---- Cursors: the (time, id) of the last row seen, opaque to the browser -------------------------

/** `at` is the timestamp as PostgreSQL writes it (microseconds kept: a JS Date would lose them). */
const encodeCursor = (at: string, id: number) => Buffer.from(JSON.stringify([at, id])).toString('base64url');
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

function decodeCursor(cursor: string | undefined): { at: string; id: number } | undefined {
  if (!cursor) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof at === 'string' && TIMESTAMP_TEXT.test(at) && Number.isSafeInteger(id) && (id as number) > 0)
      return { at, id: id as number };
  } catch {
    // answered below
  }
  throw new AppError('invalid_data', 'cursor: not a cursor this list gave out.');
}

const nextCursor = <T extends { cursor_at: string; id: number }>(rows: T[], limit: number) => {
  const last = rows[rows.length - 1];
  return rows.length === limit && last ? encodeCursor(last.cursor_at, last.id) : null;
};

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

const idParam = (request: FastifyRequest, what: string) => {
  const raw = (request.params as { id: string }).id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('not_found', `No ${what} ${raw.slice(0, 40)}.`);
  return id;
};

// ---- Answers -------------------------------------------------------------------------------------

function orderAnswer(row: OwnerOrderRow, buyer: { email: string; name: string } | undefined): OwnerOrder {
  return {
    id: row.public_id,
    status: row.status,
    created_at: iso(row.created_at)!,
    paid_at: iso(row.paid_at),
    email: buyer?.email ?? '',
    name: buyer?.name ?? '',
    total: centsToDollars(row.total_cents),
    lines: (row.lines ?? []).map((l) => ({
      kit_id: l.kit_id,
      title: l.title,
      price: centsToDollars(l.price_cents),
      refunded: l.refunded,
      refunded_amount: centsToDollars(l.refunded_cents),
      lapsed: l.lapsed,
    })),
  };
}

export function registerOwnerRoutes(app: FastifyInstance, deps: OwnerDeps): void {
  const { db, config, catalog } = deps;

  async function orderDetail(publicId: string): Promise<OwnerOrderDetail> {
    const row = await findOrder(db, publicId);
    if (!row) throw new AppError('not_found', `No order ${publicId.slice(0, 80)}.`);
    const lines = row.lines ?? [];
    const [buyers, events, mails, discount, upgrades] = await Promise.all([
      accountsByIds(db, [row.user_id]),
      paymentEventsOf(db, row.transaction_id),
      mailsAbout(db, row.public_id),
      orderDiscount(db, row.public_id),
      upgradesCrediting(
        db,
        row.user_id,
        lines.map((l) => l.id),
      ),
    ]);
    return {
      ...orderAnswer(row, buyers.get(row.user_id)),
      discount,
      upgrades: upgrades.map((u) => ({
        order_id: u.order_id,
        title: u.title,
        price: centsToDollars(u.price_cents),
        credit: centsToDollars(u.credit_cents),
        covered: centsToDollars(u.covered_cents),
        kit_ids: lines.filter((l) => u.credited.includes(l.id)).map((l) => l.kit_id),
      })),
      events: events.map((e) => ({ ...e, at: iso(e.at)! })),
      mails: mails.map((m) => ({ ...m, at: iso(m.at)! })),
    };
  }

  async function customerDetail(id: number): Promise<OwnerCustomerDetail> {
    const account = await accountOf(db, id);
    if (!account) throw new AppError('not_found', `No customer ${id}.`);
    const [totals, holdings, paid, downloads, orderList, kits, repositoryFailures] = await Promise.all([
      buyerTotals(db, [id]),
      holdingsOf(db, id),
      paidLinesOf(db, id),
      downloadsOf(db, id),
      ordersOfBuyer(db, id),
      allKits(db),
      failedRepositoryJobs(db, id),
    ]);
    const titles = new Map(kits.map((k) => [k.id, k.title]));
    const covered = new Set<number>();
    const owned: OwnerCustomerDetail['kits'] = [];
    for (const line of paid) {
      covered.add(line.kit_id);
      owned.push({
        kit_id: line.kit_id,
        title: titles.get(line.kit_id) ?? line.title,
        source: 'order',
        order_id: line.order_id,
        granted_at: iso(line.paid_at)!,
      });
    }
    for (const grant of holdings.grants) {
      covered.add(grant.kit_id);
      owned.push({
        kit_id: grant.kit_id,
        title: titles.get(grant.kit_id) ?? '',
        source: 'grant',
        order_id: null,
        granted_at: iso(grant.granted_at)!,
      });
    }
    // Kits owned from before grants were recorded apart (a manual entitlement).
    for (const e of holdings.owned.filter((o) => !covered.has(o.kit_id)))
      owned.push({
        kit_id: e.kit_id,
        title: titles.get(e.kit_id) ?? '',
        source: e.source === 'grant' ? 'grant' : 'order',
        order_id: e.source === 'grant' ? null : e.source,
        granted_at: iso(e.granted_at)!,
      });
    owned.sort((a, b) => a.granted_at.localeCompare(b.granted_at) || a.kit_id - b.kit_id);
    return {
      ...customerAnswer(account, totals.get(id)),
      kits: owned,
      downloads: downloads.map((d) => ({ ...d, at: iso(d.at)! })),
      order_list: orderList.map((o) => ({ ...o, created_at: iso(o.created_at)! })),
      repository_failures: repositoryFailures.map((f) => ({
        action: f.action,
        repository: f.repository,
        login: f.login,
        error: f.last_error ?? '',
        at: iso(f.at)!,
      })),
    };
  }

  const customerAnswer = (
    account: NonNullable<Awaited<ReturnType<typeof accountOf>>>,
    totals: { orders: number; spent: number } | undefined,
  ): OwnerCustomer => ({
    id: account.id,
    email: account.email,
    name: account.name,
    created_at: iso(account.created_at)!,
    verified: account.verified,
    orders: totals?.orders ?? 0,
    spent: totals?.spent ?? 0,
    last_sign_in: iso(account.last_sign_in),
  });

  async function kitAnswers(): Promise<OwnerKit[]> {
    const [kits, library, sales] = await Promise.all([
      allKitsWithNewestVersion(db),
      libraryStatsByKit(db),
      salesByKit(db),
    ]);
    return kits.map((k) => {
      const lib = library.get(k.id);
      const sold = sales.get(k.id);
      return {
        id: k.id,
        sef_id: k.sef_id,
        title: k.title,
        price: centsToDollars(k.price_cents),
        active: k.in_content && !k.hidden,
        version: k.version,
        released_on: k.released_on,
        units: sold?.units ?? 0,
        gross: centsToDollars(sold?.gross_cents ?? 0),
        downloads: lib?.downloads ?? 0,
        owners: lib?.owners ?? 0,
      };
    });
  }

  const inTransaction = <T>(work: (tx: Tx) => Promise<T>) => db.transaction(work);
  const subscribersCsv = subscribersCsvFile(db);

  app.register(
    async (scope) => {
      // Every call: signed in (401), an owner (403). Checked before any handler runs.
      scope.addHook('preHandler', async (request) => {
        const user = await request.user();
        if (!user) throw new AppError('unauthorized', 'Please sign in to continue.');
        const owner = await findOwner(db, config, user.id);
        if (!owner) throw new AppError('forbidden', 'This is for the shop’s owners.');
        // The session, not the account, must have proved more than a password.
        const gate = await ownerSessionGate(db, config.production, user.id, request.sessionToken());
        if (gate === 'step_up') throw new AppError('forbidden', OWNER_STEP_UP_MESSAGE);
        if (gate === 'setup') throw new AppError('forbidden', OWNER_SETUP_MESSAGE);
        owners.set(request, owner);
      });
      scope.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
        return payload;
      });

      scope.get('/me', async (request) => ownerOf(request));

      registerDiscountRoutes(scope, { db, config, ownerOf });

      scope.get('/summary', async (request): Promise<OwnerSummary> => {
        const input = parseInput(SummaryQuerySchema, request.query);
        const to = input.to ?? today();
        const from = input.from ?? addDays(to, -29);
        if (from > to) throw new AppError('invalid_data', 'from: must not be after to.');
        if (addDays(from, 1100) < to) throw new AppError('invalid_data', 'from: the range is at most three years.');
        const [sales, customers, kits] = await Promise.all([
          salesFigures(db, from, to),
          countNewAccounts(db, from, addDays(to, 1)),
          allKits(db),
        ]);
        const sum = (pick: (d: (typeof sales.days)[number]) => number) =>
          sales.days.reduce((total, d) => total + pick(d), 0);
        const gross = sum((d) => d.gross_cents);
        const refunds = sum((d) => d.refunds_cents);
        const orders = sum((d) => d.orders);
        const checkouts = sum((d) => d.checkouts);
        const byId = new Map(kits.map((k) => [k.id, k]));
        return {
          gross: centsToDollars(gross),
          refunds: centsToDollars(refunds),
          net: centsToDollars(gross - refunds),
          orders,
          customers,
          checkouts,
          conversion: checkouts === 0 ? 0 : Math.round((orders / checkouts) * 10_000) / 10_000,
          by_day: sales.days.map((d) => ({
            date: d.date,
            gross: centsToDollars(d.gross_cents),
            refunds: centsToDollars(d.refunds_cents),
            orders: d.orders,
          })),
          top_kits: sales.kits.slice(0, 5).map((k) => ({
            id: k.kit_id,
            sef_id: byId.get(k.kit_id)?.sef_id ?? '',
            title: byId.get(k.kit_id)?.title ?? '',
            units: k.units,
            gross: roundDollars(centsToDollars(Number(k.gross_cents))),
          })),
        };
      });

      scope.get('/orders', async (request) => {
        const input = parseInput(OrdersQuerySchema, request.query);
        const after = decodeCursor(input.cursor);
        const query = input.query || undefined;
        const match = query
          ? {
              publicId: query,
              buyers: accountsMatchingSql(query),
              kitIds: await kitIdsMatching(db, query),
            }
          : undefined;
        const rows = await listOrders(db, { status: input.status, after, limit: input.limit, match });
        const buyers = await accountsByIds(db, [...new Set(rows.map((r) => r.user_id))]);
        return {
          items: rows.map((r) => orderAnswer(r, buyers.get(r.user_id))),
          next_cursor: nextCursor(rows, input.limit),
        };
      });

      scope.get('/orders/:id', async (request) => orderDetail((request.params as { id: string }).id));

      scope.post('/orders/:id/refund', async (request): Promise<OwnerOrderDetail> => {
        const publicId = (request.params as { id: string }).id;
        const input = parseInput(RefundSchema, request.body);
        const owner = ownerOf(request);
        const paddle = config.paymentProvider === 'paddle';
        const refund = await inTransaction(async (tx) => {
          const order = await findOrder(tx, publicId, true);
          if (!order) throw new AppError('not_found', `No order ${publicId.slice(0, 80)}.`);
          const plan = await planRefund(tx, order, input.kit_ids);
          let adjustment: string | undefined;
          if (paddle) {
            try {
              const answer = await requestRefund(config.paddle, {
                transactionId: plan.transactionId,
                reason: input.reason,
                itemIds: plan.lines.map((l) => l.item_id),
              });
              adjustment = answer.adjustmentId;
            } catch (error) {
              if (error instanceof PaddleApiError) throw new AppError('conflict', error.message);
              throw error;
            }
          }
          const titles = plan.lines.map((l) => l.title).join(', ');
          const amount = `USD ${(plan.cents / 100).toFixed(2)}`;
          const ends = plan.endsUpgrades.map((u) => `${u.title} (order ${u.order_id})`).join(', ');
          await recordActivity(tx, owner, {
            action: paddle ? 'refund requested' : 'refund',
            target: `order ${order.public_id}`,
            detail: `${titles} (${amount}): ${input.reason}${ends ? ` — ends the upgrade ${ends}` : ''}${adjustment ? ` — Paddle adjustment ${adjustment}` : ''}`,
          });
          return { ...plan, userId: order.user_id };
        });
        if (!paddle && deps.sandboxWebhook) {
          // The sandbox refunds at once, through the same signed webhook a real refund takes.
          const body = JSON.stringify(
            sandboxRefundApproved({
              transactionId: refund.transactionId,
              customerId: sandboxCustomerId(refund.userId),
              reason: input.reason,
              lines: refund.lines.map((l) => ({ itemId: l.item_id, amountCents: l.cents })),
            }),
          );
          const delivered = await deps.sandboxWebhook.deliver(body, signPaddleBody(body, deps.sandboxWebhook.secret));
          if (delivered.statusCode !== 200)
            throw new Error(`The sandbox webhook answered ${delivered.statusCode}: ${delivered.body}`);
        }
        const detail = await orderDetail(publicId);
        return paddle ? { ...detail, refund_requested: true } : detail;
      });

      scope.post('/orders/:id/resend', async (request) => {
        const publicId = (request.params as { id: string }).id;
        const owner = ownerOf(request);
        await inTransaction(async (tx) => {
          const order = await findOrder(tx, publicId);
          if (!order) throw new AppError('not_found', `No order ${publicId.slice(0, 80)}.`);
          if (!order.paid_at)
            throw new AppError('conflict', `Order ${order.public_id} is not paid: there is no receipt.`);
          const buyer = (await accountsByIds(tx, [order.user_id])).get(order.user_id);
          if (!buyer?.email) throw new AppError('not_found', `No buyer to mail for order ${order.public_id}.`);
          const items = (order.lines ?? []).map((l) => ({ title: l.title, priceCents: l.price_cents }));
          await enqueueMail(tx, {
            ...orderConfirmationMail(config, buyer, {
              publicId: order.public_id,
              items,
              totalCents: order.total_cents,
            }),
            ref: order.public_id,
          });
          await recordActivity(tx, owner, {
            action: 'resend receipt',
            target: `order ${order.public_id}`,
            detail: `Receipt sent again to ${buyer.email}`,
          });
        });
        deps.mailQueued();
        return { ok: true };
      });

      scope.get('/customers', async (request) => {
        const input = parseInput(CustomersQuerySchema, request.query);
        const rows = await listAccounts(db, {
          query: input.query || undefined,
          after: decodeCursor(input.cursor),
          limit: input.limit,
        });
        const totals = await buyerTotals(
          db,
          rows.map((r) => r.id),
        );
        return {
          items: rows.map((r) => customerAnswer(r, totals.get(r.id))),
          next_cursor: nextCursor(rows, input.limit),
        };
      });

      scope.get('/customers/:id', async (request) => customerDetail(idParam(request, 'customer')));

      const changeGrant = (kind: 'grant' | 'revoke') => async (request: FastifyRequest) => {
        const id = idParam(request, 'customer');
        const input = parseInput(GrantSchema, request.body);
        const owner = ownerOf(request);
        const githubJobs = await inTransaction(async (tx) => {
          const account = await accountOf(tx, id);
          if (!account) throw new AppError('not_found', `No customer ${id}.`);
          const kit = await kitById(tx, input.kit_id);
          if (!kit) throw new AppError('invalid_data', `kit_id: no kit ${input.kit_id}.`);
          // Takes its turn with the customer's refunds: each sees what the other did.
          await lockBuyerRefunds(tx, id);
          if (kind === 'grant') {
            const done = await grantKit(tx, { userId: id, kitId: kit.id, note: input.note, by: owner.id });
            if (!done) throw new AppError('conflict', `${account.email} has a grant of ${kit.title} already.`);
          } else {
            const stillPaidFor = (await paidLinesOf(tx, id, [kit.id])).length > 0;
            const done = await revokeGrant(tx, { userId: id, kitId: kit.id, note: input.note, stillPaidFor });
            if (!done) throw new AppError('conflict', `${account.email} has no grant of ${kit.title} to revoke.`);
          }
          const queued = await queueRepositoryAccessSync(tx, id);
          await recordActivity(tx, owner, {
            action: kind === 'grant' ? 'grant kit' : 'revoke kit',
            target: `customer ${id}`,
            detail: `${kit.title} ${kind === 'grant' ? 'to' : 'from'} ${account.email}${input.note ? `: ${input.note}` : ''}`,
          });
          return queued;
        });
        if (githubJobs > 0) deps.githubQueued?.();
        return customerDetail(id);
      };
      // A customer's every session ends at once (a stolen device, a shared computer): their next call is 401.
      scope.post('/customers/:id/sign-out', async (request) => {
        const id = idParam(request, 'customer');
        const owner = ownerOf(request);
        const ended = await inTransaction(async (tx) => {
          const account = await accountOf(tx, id);
          if (!account) throw new AppError('not_found', `No customer ${id}.`);
          const count = await endAllSessions(tx, id);
          await recordActivity(tx, owner, {
            action: 'sign out customer',
            target: `customer ${id}`,
            detail: `${count} ${count === 1 ? 'session' : 'sessions'} of ${account.email}`,
          });
          return count;
        });
        return { ended };
      });
      scope.post('/customers/:id/grant', changeGrant('grant'));
      scope.post('/customers/:id/revoke', changeGrant('revoke'));

      scope.get('/kits', async () => kitAnswers());

      scope.post('/kits/:id', async (request) => {
        const id = idParam(request, 'kit');
        const input = parseInput(KitVisibilitySchema, request.body);
        const owner = ownerOf(request);
        await inTransaction(async (tx) => {
          const kit = await kitById(tx, id);
          if (!kit) throw new AppError('not_found', `No kit ${id}.`);
          if (input.active && !kit.in_content)
            throw new AppError(
              'conflict',
              `${kit.title} is no longer in the catalog content: add it back and run npm run catalog.`,
            );
          await setKitHidden(tx, id, !input.active);
          await recordActivity(tx, owner, {
            action: input.active ? 'show kit' : 'hide kit',
            target: `kit ${id}`,
            detail: `${kit.title} ${input.active ? 'back on' : 'taken off'} the store`,
          });
        });
        catalog.invalidate();
        return (await kitAnswers()).find((k) => k.id === id);
      });

      scope.get('/messages', async (request) => {
        const { status } = parseInput(MessagesQuerySchema, request.query);
        const rows = await listMessages(db, status);
        return { items: rows.map((m) => ({ ...m, created_at: iso(m.created_at)! })) };
      });

      scope.post('/messages/:id/reply', async (request) => {
        const id = idParam(request, 'message');
        const input = parseInput(ReplySchema, request.body);
        const owner = ownerOf(request);
        const message = await inTransaction(async (tx) => {
          const found = await findMessage(tx, id, true);
          if (!found) throw new AppError('not_found', `No message ${id}.`);
          await enqueueMail(tx, messageReplyMail(config, found, input.body));
          const answered = await markAnswered(tx, id);
          await recordActivity(tx, owner, {
            action: 'reply',
            target: `message ${id}`,
            detail: `Reply to ${found.email}: ${input.body.slice(0, 200)}`,
          });
          return answered;
        });
        deps.mailQueued();
        return { ...message, created_at: iso(message.created_at)! };
      });

      scope.get('/subscribers', async (request) => {
        const input = parseInput(PageQuerySchema, request.query);
        const { total, rows } = await subscribersPage(db, { after: decodeCursor(input.cursor), limit: input.limit });
        return {
          total,
          items: rows.map((r) => ({ email: r.email, subscribed_at: iso(r.subscribed_at)! })),
          next_cursor: nextCursor(rows, input.limit),
        };
      });

      // Not compressed on the fly: a rare owner download, where brotli would cost more than it saves.
      scope.get('/subscribers.csv', { compress: false }, async (_request, reply) => {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="subscribers-${today()}.csv"`)
          .send(await subscribersCsv());
      });

      scope.get('/activity', async (request) => {
        const input = parseInput(PageQuerySchema, request.query);
        const rows = await activityPage(db, { after: decodeCursor(input.cursor), limit: input.limit });
        return {
          items: rows.map((r) => ({
            at: iso(r.at)!,
            actor: r.actor,
            action: r.action,
            target: r.target,
            detail: r.detail,
          })),
          next_cursor: nextCursor(rows, input.limit),
        };
      });
    },
    { prefix: '/api/admin' },
  );
}
