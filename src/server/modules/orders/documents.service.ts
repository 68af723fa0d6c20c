import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { documentUrl, PaddleApiError } from '../../integrations/payments/paddle-api.ts';
import { findContacts } from '../accounts/accounts.service.ts';
import { type InvoiceDocument, renderInvoicePdf } from './invoice-pdf.ts';
import { type DocumentOrder, issueDocument } from './invoices.service.ts';

/** An order's documents as the buyer (and an owner, through the console) fetch them. */

export type InvoiceDeps = { db: Database; config: Config };

const day = (value: string | Date) => new Date(value).toISOString().slice(0, 10);

/** Where an order's documents are fetched (under the base path, as the browser asks for them). */
export const invoicePath = (publicId: string) => `/api/orders/${encodeURIComponent(publicId)}/invoice`;
export const creditNotePath = (publicId: string, adjustmentId: string) =>
  `/api/orders/${encodeURIComponent(publicId)}/credit-notes/${encodeURIComponent(adjustmentId)}`;

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
