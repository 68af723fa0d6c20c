import type { FastifyInstance } from 'fastify';
import { ContactSchema, SubscribeSchema } from '../../../common/schemas/messages.ts';
import { htmlPage } from '../../http/html-page.ts';
import { ipKey, type RateLimiter } from '../../http/rate-limit.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { escapeHtml } from '../../lib/escape.ts';
import { isKnownToken, type MessagesDeps, sendContactMessage, subscribe, unsubscribe } from './messages.service.ts';

export function registerMessageRoutes(fastify: FastifyInstance, deps: MessagesDeps & { limiter: RateLimiter }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, limiter } = deps;

  app.post('/api/contact', { schema: { body: ContactSchema } }, async (request) => {
    const input = request.body;
    await limiter.consume(`contact:ip:${ipKey(request.ip)}`, config.limits.contactPerIp, 'messages');
    await sendContactMessage(deps, input, request.ip);
    return { message: "Your message was sent successfully. We'll get back to you shortly." };
  });

  app.post('/api/subscribe', { schema: { body: SubscribeSchema } }, async (request) => {
    const { email } = request.body;
    await limiter.consume(`subscribe:ip:${ipKey(request.ip)}`, config.limits.subscribePerIp, 'subscription attempts');
    await subscribe(deps, email);
    return { message: 'You have been registered to our email bulletin' };
  });

  // GET only shows a button: mail scanners follow GET links, and must not unsubscribe anyone.
  app.get('/newsletter/unsubscribe', async (request, reply) => {
    const token = String((request.query as { token?: unknown }).token ?? '');
    const state = await isKnownToken(deps.db, token);
    const body =
      state === 'unknown'
        ? `<h1>Link not recognised</h1><p class="notice">This unsubscribe link is not valid. If you keep receiving mails, write to <a href="mailto:${escapeHtml(config.supportEmail)}">${escapeHtml(config.supportEmail)}</a>.</p>`
        : state === 'unsubscribed'
          ? '<h1>You are unsubscribed</h1><p class="notice">This address no longer receives the newsletter.</p>'
          : `<h1>Unsubscribe from the newsletter?</h1><p>You will no longer receive news about new kits and updates. Order and account e-mails are not affected.</p>
<form method="post" action="${config.basePath}/newsletter/unsubscribe?token=${encodeURIComponent(token)}"><button class="button" type="submit">Unsubscribe</button></form>`;
    return reply
      .status(state === 'unknown' ? 404 : 200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(htmlPage({ basePath: config.basePath, title: 'Newsletter — Kitshop', body }));
  });

  // The button above and mail clients' one-click unsubscribe (RFC 8058): the token is the proof.
  app.post('/newsletter/unsubscribe', { config: { csrf: false } }, async (request, reply) => {
    const token = String((request.query as { token?: unknown }).token ?? '');
    const done = await unsubscribe(deps.db, token);
    const body = done
      ? '<h1>You are unsubscribed</h1><p class="notice">This address no longer receives the newsletter. You can subscribe again at any time from the footer of the shop.</p>'
      : '<h1>Link not recognised</h1><p class="notice">This unsubscribe link is not valid.</p>';
    return reply
      .status(done ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(htmlPage({ basePath: config.basePath, title: 'Newsletter — Kitshop', body }));
  });
}
