import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { centsToDollars } from '../../../common/money.ts';
import { CartRequestSchema, OrderParamsSchema, type OrderResponse } from '../../../common/schemas/orders.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import { EventFormatError, readPaddleEvent } from '../../integrations/payments/events.ts';
import { sandboxTransactionCompleted } from '../../integrations/payments/sandbox.ts';
import { verifyPaddleSignature } from '../../integrations/payments/signature.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import { createPaymentEventQueue } from './fulfilment.service.ts';
import { registerInvoiceRoutes } from './invoices.routes.ts';
import { checkOutCart, findBuyerOrder, priceCart } from './orders.service.ts';

export type OrdersDeps = {
  db: Database;
  config: Config;
  catalog: Catalog;
  mailQueued: () => void;
  /** Called after repository grants or revokes were queued (GitHub delivery on), so they start now. */
  githubQueued?: () => void;
  webhookSecret: string;
  /** The shop owners' addresses, told of each paid order: a text[] expression (read with the orders). */
  saleRecipients?: SQL;
  /** Told each webhook delivery's outcome (`rejected` for a bad signature or body), for the metrics. */
  countPaymentEvent?: (outcome: string) => void;
  /** Seals the licence keys that paid kits get. */
  licenceBox?: SecretBox;
};

export function registerOrderRoutes(fastify: FastifyInstance, deps: OrdersDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const cartDeps = {
    ...deps,
    paddle: deps.config.paymentProvider === 'paddle' ? deps.config.paddle : undefined,
    timeZone: deps.config.shopTimeZone,
  };
  app.post('/api/cart', { schema: { body: CartRequestSchema } }, async (request) => {
    const input = request.body;
    const user = await request.user();
    // 403 means "session expired" to the checkout page, which then sends the buyer to sign in.
    if (input.checkout && !user)
      throw new AppError('forbidden', 'Your session has expired. Please login to continue checkout.');
    return user && input.checkout
      ? checkOutCart(cartDeps, input.products, user, input.discount_code)
      : priceCart(cartDeps, input.products, user, input.discount_code);
  });

  // The buyer's own order and its kits as sold: the success screen waits for them in the purchases.
  app.get(
    '/api/orders/:order_id',
    { preValidation: signedIn, schema: { params: OrderParamsSchema } },
    async (request): Promise<OrderResponse> => {
      const user = await requireUser(request);
      const { order_id } = request.params;
      const found = await findBuyerOrder(deps.db, order_id, user.id);
      if (!found) throw new AppError('not_found', 'We could not find that order.');
      return {
        order_id: found.order.publicId,
        status: found.order.status,
        items: found.items.map((item) => ({
          id: item.kitId,
          title: item.title,
          refunded: centsToDollars(item.refundedCents),
        })),
      };
    },
  );

  registerInvoiceRoutes(fastify, deps);

  // Paddle calls this: no CSRF token, the signature on the raw body is the proof.
  const paymentEvents = createPaymentEventQueue(deps);
  // The event reader compiles its checks on first use (zod generates code for each object shape):
  // done here, at start, rather than in the first delivery of a burst.
  readPaddleEvent(
    sandboxTransactionCompleted({
      publicId: 'ord_warm_up',
      userId: 0,
      items: [{ kitId: 0, paddlePriceId: 'pri_warm_up', priceCents: 100 }],
    }),
  );
  app.post('/api/webhooks/paddle', { config: { csrf: false }, compress: false }, async (request) => {
    const check = verifyPaddleSignature(
      request.rawBody ?? '',
      request.headers['paddle-signature'] as string | undefined,
      deps.webhookSecret,
    );
    const rejected = (message: string) => {
      deps.countPaymentEvent?.('rejected');
      return new AppError('bad_request', message);
    };
    if (!check.ok) throw rejected(check.reason);
    let received: ReturnType<typeof readPaddleEvent>;
    try {
      received = readPaddleEvent(request.body);
    } catch (error) {
      if (error instanceof EventFormatError) throw rejected(error.message);
      throw error;
    }
    const outcome = await paymentEvents.apply(received, request.body);
    deps.countPaymentEvent?.(outcome);
    request.log.info({ eventId: received.eventId, eventType: received.eventType, outcome }, 'payment event');
    return { ok: true, outcome };
  });
}
