import type { FastifyInstance, FastifyReply } from 'fastify';
import { centsToDollars } from '../../../common/money.ts';
import {
  BusinessDetailsSchema,
  type BuyerOrder,
  type BuyerOrdersResponse,
  OrderParamsSchema,
} from '../../../common/schemas/orders.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { documentUrl, PaddleApiError, reviseTransaction } from '../../integrations/payments/paddle-api.ts';
import { findContacts } from '../accounts/accounts.service.ts';
import { type InvoiceDocument, renderInvoicePdf } from './invoice-pdf.ts';
import {
  buyerInvoicedOrders,
  type DocumentOrder,
  findInvoicedOrder,
  issueDocument,
  saveBusinessDetails,
} from './invoices.service.ts';

export type InvoiceDeps = { db: Database; config: Config };

const day = (value: string | Date) => new Date(value).toISOString().slice(0, 10);
const isoTime = (value: string | Date) => new Date(value).toISOString();

/** Where an order's documents are fetched (under the base path, as the browser asks for them). */
export const invoicePath = (publicId: string) => `/api/orders/${encodeURIComponent(publicId)}/invoice`;
export const creditNotePath = (publicId: string, adjustmentId: string) =>
  `/api/orders/${encodeURIComponent(publicId)}/credit-notes/${encodeURIComponent(adjustmentId)}`;

function buyerOrderAnswer(order: DocumentOrder): BuyerOrder {
  return {
    order_id: order.public_id,
    date: isoTime(order.paid_at),
    status: order.status,
    currency: order.currency,
    total: centsToDollars(order.total_cents),
    discount: centsToDollars(order.discount_cents),
    kits: order.lines.map((l) => ({
      id: l.kit_id,
      title: l.title,
      price: centsToDollars(l.price_cents),
      list_price: centsToDollars(l.list_price_cents),
    })),
    business: order.business,
    can_add_business: order.business === null && order.business_added_at === null,
    invoice_url: invoicePath(order.public_id),
    credit_notes: order.refunds.map((r) => ({
      url: creditNotePath(order.public_id, r.adjustment_id),
      date: isoTime(r.at),
      amount: centsToDollars(r.cents),
    })),
  };
}

const paddleProblem = (what: string, error: unknown) => {
  if (error instanceof PaddleApiError)
    return new AppError(
      'conflict',
      `Paddle could not give the ${what} right now (${error.message}). Please try again.`,
    );
  return error;
};

/**
 * Sends an order's invoice (no `adjustmentId`) or a refund's credit note: with Paddle, a redirect to
 * the PDF Paddle issued (its link expires, so the answer is never kept); with the sandbox, the shop's
 * own PDF, numbered when first issued. The caller has checked who may see the order.
 */
export async function sendOrderDocument(
  reply: FastifyReply,
  deps: InvoiceDeps,
  order: DocumentOrder,
  adjustmentId?: string,
): Promise<FastifyReply> {
  const refund = adjustmentId === undefined ? undefined : order.refunds.find((r) => r.adjustment_id === adjustmentId);
  if (adjustmentId !== undefined && !refund) throw new AppError('not_found', 'This order has no such refund.');
  reply.header('cache-control', 'no-store');
  if (deps.config.paymentProvider === 'paddle') {
    if (!order.transaction_id) throw new AppError('not_found', 'Paddle has no transaction for this order.');
    let url: string;
    try {
      url = await documentUrl(
        deps.config.paddle,
        refund ? { adjustmentId: refund.adjustment_id } : { transactionId: order.transaction_id },
      );
    } catch (error) {
      throw paddleProblem(refund ? 'credit note' : 'invoice', error);
    }
    return reply.redirect(url, 302);
  }
  const invoice = await issueDocument(deps.db, order.id, 'invoice');
  const credit = refund ? await issueDocument(deps.db, order.id, 'credit_note', refund.adjustment_id) : undefined;
  const [buyer] = await findContacts(deps.db, [order.user_id]);
  const document: InvoiceDocument = {
    kind: refund ? 'credit_note' : 'invoice',
    number: credit?.number ?? invoice.number,
    corrects: credit ? invoice.number : undefined,
    date: day(refund ? refund.at : order.paid_at),
    orderId: order.public_id,
    transactionId: order.transaction_id,
    currency: order.currency,
    seller: deps.config.seller,
    buyer: { name: buyer?.name ?? '', email: buyer?.email ?? '', business: order.business },
    lines: refund
      ? refund.lines.map((l) => ({ title: l.title, priceCents: l.cents, discountCents: 0, amountCents: l.cents }))
      : order.lines.map((l) => ({
          title: l.title,
          priceCents: l.list_price_cents,
          discountCents: l.list_price_cents - l.price_cents,
          amountCents: l.price_cents,
        })),
    taxCents: 0,
    totalCents: refund ? refund.cents : order.total_cents,
  };
  const { default: PDFDocument } = await import('pdfkit');
  const name = `${document.kind === 'invoice' ? 'invoice' : 'credit-note'}-${document.number}.pdf`;
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${name}"`)
    .send(renderInvoicePdf(PDFDocument, document));
}

/**
 * The buyer's orders and their documents: `GET /api/orders` (the user panel's Orders tab), the
 * invoice and credit notes of one, and business details added to it (before paying, or once after).
 */
export function registerInvoiceRoutes(app: FastifyInstance, deps: InvoiceDeps): void {
  const { db, config } = deps;

  app.get('/api/orders', async (request): Promise<BuyerOrdersResponse> => {
    const user = await requireUser(request);
    return { items: (await buyerInvoicedOrders(db, user.id)).map(buyerOrderAnswer) };
  });

  async function buyersOrder(request: { params: unknown }, userId: number) {
    const { order_id } = parseInput(OrderParamsSchema, request.params, 'not_found');
    const order = await findInvoicedOrder(db, order_id, userId);
    if (!order) throw new AppError('not_found', 'We could not find that order.');
    return order;
  }

  // Not compressed on the fly: a PDF is compressed already.
  app.get('/api/orders/:order_id/invoice', { compress: false }, async (request, reply) => {
    const user = await requireUser(request);
    return sendOrderDocument(reply, deps, await buyersOrder(request, user.id));
  });

  app.get('/api/orders/:order_id/credit-notes/:adjustment_id', { compress: false }, async (request, reply) => {
    const user = await requireUser(request);
    const order = await buyersOrder(request, user.id);
    const adjustmentId = String((request.params as { adjustment_id: string }).adjustment_id).slice(0, 100);
    return sendOrderDocument(reply, deps, order, adjustmentId);
  });

  app.post('/api/orders/:order_id/business', async (request) => {
    const user = await requireUser(request);
    const { order_id } = parseInput(OrderParamsSchema, request.params, 'not_found');
    const details = parseInput(BusinessDetailsSchema, request.body);
    const paddle = config.paymentProvider === 'paddle';
    const saved = await saveBusinessDetails(db, order_id, user.id, details, async ({ transactionId }) => {
      // The sandbox's invoice is the shop's own: it shows the details from now on.
      if (!paddle) return;
      if (!transactionId) throw new AppError('conflict', 'Paddle has no transaction for this order.');
      try {
        await reviseTransaction(config.paddle, transactionId, {
          business: { name: details.company_name, taxIdentifier: details.vat_id ?? undefined },
          address: { firstLine: details.address_line ?? undefined, city: details.city ?? undefined },
        });
      } catch (error) {
        if (error instanceof PaddleApiError) throw new AppError('conflict', error.message);
        throw error;
      }
    });
    return { ok: true, business: details, after_payment: saved.afterPayment };
  });
}
