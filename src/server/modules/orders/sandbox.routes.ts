import { readFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SandboxPaySchema } from '../../../common/schemas/orders.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import { SANDBOX_CARDS, sandboxTransactionCompleted } from '../../integrations/payments/sandbox.ts';
import { signPaddleBody } from '../../integrations/payments/signature.ts';
import { ownedKitIds } from '../library/library.service.ts';
import type { OrdersDeps } from './orders.routes.ts';
import { findBuyerOrder } from './orders.service.ts';
import { renderSandboxPage } from './sandbox-page.ts';

/** The page's stylesheet and script, files beside this one (the build copies them into dist). */
const asset = (name: string) => readFileSync(new URL(`./sandbox/${name}`, import.meta.url), 'utf8');

/**
 * The built-in sandbox checkout: the page inside the inline frame (marked as a test payment),
 * and its Pay call, which signs a Paddle-format `transaction.completed` event with the sandbox
 * secret and delivers it to the shop's own webhook route.
 */
export function registerSandboxRoutes(
  fastify: FastifyInstance,
  deps: OrdersDeps & { deliverWebhook: (body: string, signature: string) => Promise<LightMyRequestResponse> },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = deps;
  const base = config.basePath;
  const css = asset('checkout.css');
  const script = asset('checkout.js');

  app.get('/sandbox/checkout.js', { config: { csrf: false } }, async (_request, reply) => {
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script);
  });

  app.get('/sandbox/checkout', async (request, reply) => {
    const orderId = String((request.query as { order_id?: unknown }).order_id ?? '').slice(0, 64);
    const user = await request.user();
    const found = user ? await findBuyerOrder(db, orderId, user.id) : undefined;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderSandboxPage(base, found, { csrf: reply.csrfToken(), orderId }));
  });

  app.get('/sandbox/checkout.css', { config: { csrf: false } }, async (_request, reply) => {
    return reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(css);
  });

  app.post(
    '/sandbox/checkout/pay',
    { preValidation: signedIn, schema: { body: SandboxPaySchema } },
    async (request) => {
      const user = await requireUser(request);
      const input = request.body;
      const card = input.card_number.replace(/[\s-]/g, '');
      if (card === SANDBOX_CARDS.declined)
        throw new AppError('bad_request', 'Your card was declined. Try the test card 4242 4242 4242 4242.');
      if (card !== SANDBOX_CARDS.paid)
        throw new AppError(
          'invalid_data',
          'card_number: Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.',
        );
      const found = await findBuyerOrder(db, input.order_id, user.id);
      if (!found) throw new AppError('not_found', 'This checkout has expired. Press Make Payment again.');
      if (found.order.status !== 'pending') throw new AppError('conflict', 'This order is already paid.');
      // A kit taken off the store since the order was made is no longer sold.
      const onSale = (await deps.catalog.snapshot()).byId;
      const withdrawn = found.items.filter((i) => !onSale.has(i.kitId));
      if (withdrawn.length > 0)
        throw new AppError(
          'conflict',
          `${withdrawn.map((i) => i.title).join(', ')} is no longer for sale. Reload the checkout page.`,
        );
      // A stale order (another tab paid for some of its kits meanwhile) would charge for them twice.
      // A licence tier adds seats to a kit its buyer may own already (an upgrade from Solo).
      const owned = await ownedKitIds(
        db,
        user.id,
        found.items.filter((i) => i.licenceId === null).map((i) => i.kitId),
      );
      if (owned.size > 0)
        throw new AppError(
          'conflict',
          `You already own ${found.items
            .filter((i) => owned.has(i.kitId))
            .map((i) => i.title)
            .join(', ')}. Reload the checkout page: it charges only for kits you do not own yet.`,
        );
      const body = JSON.stringify(
        sandboxTransactionCompleted({ publicId: found.order.publicId, userId: user.id, items: found.items }),
      );
      const delivered = await deps.deliverWebhook(body, signPaddleBody(body, deps.webhookSecret));
      if (delivered.statusCode !== 200)
        throw new Error(`The sandbox webhook answered ${delivered.statusCode}: ${delivered.body}`);
      return { ok: true, redirect: `${base}/checkout?status=success` };
    },
  );
}
