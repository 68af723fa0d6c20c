import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { centsToDollars } from '../../../common/money.ts';
import {
  BusinessDetailsSchema,
  type BuyerOrder,
  type BuyerOrdersResponse,
  OrderParamsSchema,
} from '../../../common/schemas/orders.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import { PaddleApiError, reviseTransaction } from '../../integrations/payments/paddle-api.ts';
import { creditNotePath, type InvoiceDeps, invoicePath, sendOrderDocument } from './documents.service.ts';
import {
  buyerInvoicedOrders,
  clearPendingBusiness,
  type DocumentOrder,
  findInvoicedOrder,
  saveBusinessDetails,
} from './invoices.service.ts';

const CreditNoteParamsSchema = OrderParamsSchema.extend({ adjustment_id: z.string() });

const isoTime = (value: string | Date) => new Date(value).toISOString();

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

/**
 * The buyer's orders and their documents: `GET /api/orders` (the user panel's Orders tab), the
 * invoice and credit notes of one, and business details added to it (before paying, or once after).
 */
export function registerInvoiceRoutes(fastify: FastifyInstance, deps: InvoiceDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = deps;

  app.get('/api/orders', async (request): Promise<BuyerOrdersResponse> => {
    const user = await requireUser(request);
    return { items: (await buyerInvoicedOrders(db, user.id)).map(buyerOrderAnswer) };
  });

  async function buyersOrder(orderId: string, userId: number) {
    const order = await findInvoicedOrder(db, orderId, userId);
    if (!order) throw new AppError('not_found', 'We could not find that order.');
    return order;
  }

  // Not compressed on the fly: a PDF is compressed already.
  app.get(
    '/api/orders/:order_id/invoice',
    { compress: false, preValidation: signedIn, schema: { params: OrderParamsSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      return sendOrderDocument(reply, deps, await buyersOrder(request.params.order_id, user.id));
    },
  );

  app.get(
    '/api/orders/:order_id/credit-notes/:adjustment_id',
    { compress: false, preValidation: signedIn, schema: { params: CreditNoteParamsSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const order = await buyersOrder(request.params.order_id, user.id);
      const adjustmentId = request.params.adjustment_id.slice(0, 100);
      return sendOrderDocument(reply, deps, order, adjustmentId);
    },
  );

  app.post(
    '/api/orders/:order_id/business',
    { preValidation: signedIn, schema: { params: OrderParamsSchema, body: BusinessDetailsSchema } },
    async (request) => {
      const user = await requireUser(request);
      const { order_id } = request.params;
      const details = request.body;
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
    },
  );

  // The checkout's switch turned off after details were kept: the order is no business purchase.
  app.post(
    '/api/orders/:order_id/business/clear',
    { preValidation: signedIn, schema: { params: OrderParamsSchema } },
    async (request) => {
      const user = await requireUser(request);
      const { order_id } = request.params;
      await clearPendingBusiness(db, order_id, user.id);
      return { ok: true };
    },
  );
}
