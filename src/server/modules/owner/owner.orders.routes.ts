import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { centsToDollars } from '../../../common/money.ts';
import {
  OrdersExportQuerySchema,
  OrdersQuerySchema,
  type OwnerOrder,
  type OwnerOrderDetail,
  RefundSchema,
} from '../../../common/schemas/owner.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { mailsAbout } from '../../integrations/mail/outbox.ts';
import type { MailContext } from '../../integrations/mail/templates.ts';
import { addDays } from '../../lib/days.ts';
import { accountsByIds, accountsMatchingSql } from '../accounts/accounts.owner.service.ts';
import { kitIdsMatching } from '../catalog/catalog.owner.service.ts';
import { orderDiscount } from '../orders/discounts.service.ts';
import { type InvoiceDeps, sendOrderDocument } from '../orders/documents.service.ts';
import { findInvoicedOrder } from '../orders/invoices.service.ts';
import { ordersCsv } from '../orders/orders.export.service.ts';
import {
  findOrder,
  listOrders,
  type OwnerOrderRow,
  paymentEventsOf,
  queueReceiptAgain,
} from '../orders/orders.owner.service.ts';
import { type RefundCall, refundOrder, upgradesCrediting } from '../orders/refunds.service.ts';
import { freeSeat, teamsOf } from '../orders/seats.owner.service.ts';
import { decodeCursor, idParams, iso, nextCursor, type OwnerOf } from './owner.params.ts';
import { recordActivity } from './owner.service.ts';

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

/**
 * The orders: list and search, one order with its payment events and mails, refunds and receipts
 * sent again (inside the owner scope). Each change is written to the activity log in its transaction.
 */
export function registerOwnerOrderRoutes(
  scope: FastifyInstance,
  deps: {
    db: Database;
    mail: MailContext;
    ownerOf: OwnerOf;
    mailQueued: () => void;
    /** Asks the payment provider for a refund. */
    refundCall: RefundCall;
    /** Paddle approves a refund later (the answer says it was requested); the sandbox refunds at once. */
    refundsApprovedLater: boolean;
    /** Called after repository grants or revokes were queued (GitHub delivery on), so they start now. */
    githubQueued?: () => void;
    /** The orders' invoices and credit notes, as their buyers get them. */
    invoices: InvoiceDeps;
  },
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, ownerOf } = deps;

  async function orderDetail(publicId: string): Promise<OwnerOrderDetail> {
    const row = await findOrder(db, publicId);
    if (!row) throw new AppError('not_found', `No order ${publicId.slice(0, 80)}.`);
    const lines = row.lines ?? [];
    const [buyers, events, mails, discount, upgrades, teams] = await Promise.all([
      accountsByIds(db, [row.user_id]),
      paymentEventsOf(db, row.transaction_id),
      mailsAbout(db, row.public_id),
      orderDiscount(db, row.public_id),
      upgradesCrediting(
        db,
        row.user_id,
        lines.map((l) => l.id),
      ),
      lines.some((l) => l.seats > 1) ? teamsOf(db, { orderPublicId: row.public_id }) : [],
    ]);
    return {
      ...orderAnswer(row, buyers.get(row.user_id)),
      discount,
      teams,
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

  app.get('/orders', { schema: { querystring: OrdersQuerySchema } }, async (request) => {
    const input = request.query;
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

  // Streamed page by page as the owner's connection takes it; not compressed on the fly (a rare
  // download, where brotli would cost more than it saves).
  app.get(
    '/orders.csv',
    { compress: false, schema: { querystring: OrdersExportQuerySchema } },
    async (request, reply) => {
      const { from, to } = request.query;
      const rows = ordersCsv(db, (ids) => accountsByIds(db, ids), from, addDays(to, 1));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${from}-to-${to}.csv"`)
        .send(Readable.from(rows));
    },
  );

  app.get('/orders/:id', async (request) => orderDetail((request.params as { id: string }).id));

  async function invoicedOrder(publicId: string) {
    const order = await findInvoicedOrder(db, publicId);
    if (!order) throw new AppError('not_found', `No paid order ${publicId.slice(0, 80)}.`);
    return order;
  }

  app.get('/orders/:id/invoice', { compress: false }, async (request, reply) =>
    sendOrderDocument(reply, deps.invoices, await invoicedOrder((request.params as { id: string }).id)),
  );

  app.get('/orders/:id/credit-notes/:adjustment_id', { compress: false }, async (request, reply) => {
    const params = request.params as { id: string; adjustment_id: string };
    return sendOrderDocument(reply, deps.invoices, await invoicedOrder(params.id), params.adjustment_id.slice(0, 100));
  });

  app.post('/orders/:id/refund', { schema: { body: RefundSchema } }, async (request): Promise<OwnerOrderDetail> => {
    const publicId = (request.params as { id: string }).id;
    const input = request.body;
    const owner = ownerOf(request);
    const later = deps.refundsApprovedLater;
    await refundOrder(
      db,
      { publicId, kitIds: input.kit_ids, reason: input.reason },
      deps.refundCall,
      async (tx, refund, answer) => {
        const titles = refund.lines.map((l) => l.title).join(', ');
        const amount = `USD ${(refund.cents / 100).toFixed(2)}`;
        const ends = refund.endsUpgrades.map((u) => `${u.title} (order ${u.order_id})`).join(', ');
        await recordActivity(tx, owner, {
          action: later ? 'refund requested' : 'refund',
          target: `order ${refund.orderId}`,
          detail: `${titles} (${amount}): ${input.reason}${ends ? ` — ends the upgrade ${ends}` : ''}${answer.adjustmentId ? ` — Paddle adjustment ${answer.adjustmentId}` : ''}`,
        });
      },
    );
    const detail = await orderDetail(publicId);
    return later ? { ...detail, refund_requested: true } : detail;
  });

  // An owner frees a seat of a Team licence: a member loses access, an invitation stops working.
  app.post('/seats/:id/free', { schema: { params: idParams('seat') } }, async (request) => {
    const { id } = request.params;
    const owner = ownerOf(request);
    const { orderId, jobs } = await db.transaction(async (tx) => {
      const freed = await freeSeat(tx, id);
      await recordActivity(tx, owner, {
        action: 'free seat',
        target: `order ${freed.orderId}`,
        detail: `${freed.seat.status === 'active' ? 'member' : 'invitation'} ${freed.seat.email}`,
      });
      return freed;
    });
    if (jobs > 0) deps.githubQueued?.();
    return orderDetail(orderId);
  });

  app.post('/orders/:id/resend', async (request) => {
    const publicId = (request.params as { id: string }).id;
    const owner = ownerOf(request);
    await db.transaction(async (tx) => {
      const receipt = await queueReceiptAgain(tx, deps.mail, publicId);
      await recordActivity(tx, owner, {
        action: 'resend receipt',
        target: `order ${receipt.publicId}`,
        detail: `Receipt sent again to ${receipt.email}`,
      });
    });
    deps.mailQueued();
    return { ok: true };
  });
}
