import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CartRequestSchema, SandboxPaySchema } from '../../../common/schemas/orders.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders } from '../../db/schema/orders.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import { scriptJson } from '../../http/page-shell.ts';
import { requireUser } from '../../http/session.ts';
import { EventFormatError, readPaddleEvent } from '../../integrations/payments/events.ts';
import { SANDBOX_CARDS, sandboxTransactionCompleted } from '../../integrations/payments/sandbox.ts';
import { signPaddleBody, verifyPaddleSignature } from '../../integrations/payments/signature.ts';
import { escapeHtml } from '../../lib/escape.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import { ownedKitIds } from '../library/library.service.ts';
import { createPaymentEventQueue } from './fulfilment.service.ts';
import { priceCart } from './orders.service.ts';

export type OrdersDeps = {
  db: Database;
  config: Config;
  catalog: Catalog;
  mailQueued: () => void;
  webhookSecret: string;
  /** The shop owners' addresses, told of each paid order. */
  saleRecipients?: (tx: Pick<Database, 'execute'>) => Promise<string[]>;
};

export function registerOrderRoutes(app: FastifyInstance, deps: OrdersDeps): void {
  app.post('/api/cart', async (request) => {
    const input = parseInput(CartRequestSchema, request.body);
    const user = await request.user();
    // 403 means "session expired" to the checkout page, which then sends the buyer to sign in.
    if (input.checkout && !user)
      throw new AppError('forbidden', 'Your session has expired. Please login to continue checkout.');
    return priceCart(deps, input.products, user, input.checkout);
  });

  // Paddle calls this: no CSRF token, the signature on the raw body is the proof.
  const paymentEvents = createPaymentEventQueue(deps);
  app.post('/api/webhooks/paddle', { config: { csrf: false }, compress: false }, async (request) => {
    const check = verifyPaddleSignature(
      request.rawBody ?? '',
      request.headers['paddle-signature'] as string | undefined,
      deps.webhookSecret,
    );
    if (!check.ok) throw new AppError('bad_request', check.reason);
    let received: ReturnType<typeof readPaddleEvent>;
    try {
      received = readPaddleEvent(request.body);
    } catch (error) {
      if (error instanceof EventFormatError) throw new AppError('bad_request', error.message);
      throw error;
    }
    const outcome = await paymentEvents.apply(received, request.body);
    request.log.info({ eventId: received.eventId, eventType: received.eventType, outcome }, 'payment event');
    return { ok: true, outcome };
  });
}

/**
 * The built-in sandbox checkout: the page inside the inline frame (marked as a test payment),
 * and its Pay call, which signs a Paddle-format `transaction.completed` event with the sandbox
 * secret and delivers it to the shop's own webhook route.
 */
export function registerSandboxRoutes(
  app: FastifyInstance,
  deps: OrdersDeps & { deliverWebhook: (body: string, signature: string) => Promise<LightMyRequestResponse> },
): void {
  const { db, config } = deps;
  const base = config.basePath;

  async function pendingOrder(publicId: string, userId: number) {
    const [order] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.publicId, publicId), eq(orders.userId, userId)));
    if (!order) return undefined;
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    return { order, items };
  }

  app.get('/sandbox/checkout.js', { config: { csrf: false } }, async (_request, reply) => {
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(SANDBOX_SCRIPT);
  });

  app.get('/sandbox/checkout', async (request, reply) => {
    const orderId = String((request.query as { order_id?: unknown }).order_id ?? '').slice(0, 64);
    const user = await request.user();
    const found = user ? await pendingOrder(orderId, user.id) : undefined;
    const usd = (cents: number) => `USD ${(cents / 100).toFixed(2)}`;
    const body = !found
      ? '<p class="error" role="alert">This checkout has expired. Close it and press Make Payment again.</p>'
      : found.order.status !== 'pending'
        ? '<p class="done" role="status">This order is already paid.</p>'
        : `<ul class="lines">${found.items.map((i) => `<li><span>${escapeHtml(i.title)}</span><span>${usd(i.priceCents)}</span></li>`).join('')}</ul>
<p class="total"><span>Total</span><span>${usd(found.order.totalCents)}</span></p>
<form id="pay" novalidate>
  <label for="card">Card number</label>
  <input id="card" name="card" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242" required>
  <div class="row"><div><label for="exp">Expiry</label><input id="exp" placeholder="12/34" value="12/34"></div>
  <div><label for="cvc">CVC</label><input id="cvc" placeholder="123" value="123"></div></div>
  <p id="message" class="error" role="alert" hidden></p>
  <button type="submit">Pay</button>
  <p class="hint">Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.</p>
</form>`;
    const data = { csrf: reply.generateCsrf(), orderId, payUrl: `${base}/sandbox/checkout/pay` };
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test payment</title><meta name="robots" content="noindex"><link rel="stylesheet" href="${base}/sandbox/checkout.css"></head>
<body><main><p class="badge">Test payment — no money moves</p><h1>Pay by card</h1>${body}</main>
<script type="application/json" id="sandbox-data">${scriptJson(data)}</script><script src="${base}/sandbox/checkout.js"></script></body></html>`);
  });

  app.get('/sandbox/checkout.css', { config: { csrf: false } }, async (_request, reply) => {
    return reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(SANDBOX_CSS);
  });

  app.post('/sandbox/checkout/pay', async (request) => {
    const user = await requireUser(request);
    const input = parseInput(SandboxPaySchema, request.body);
    const card = input.card_number.replace(/[\s-]/g, '');
    if (card === SANDBOX_CARDS.declined)
      throw new AppError('bad_request', 'Your card was declined. Try the test card 4242 4242 4242 4242.');
    if (card !== SANDBOX_CARDS.paid)
      throw new AppError(
        'invalid_data',
        'card_number: Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.',
      );
    const found = await pendingOrder(input.order_id, user.id);
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
    const owned = await ownedKitIds(
      db,
      user.id,
      found.items.map((i) => i.kitId),
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
  });
}

const SANDBOX_CSS = `*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1e293b;background:#fff}
main{max-width:480px;margin:0 auto;padding:20px}.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:99px;padding:2px 10px;font-size:13px;font-weight:600;margin:0 0 8px}
h1{font-size:20px;margin:0 0 12px}.lines{list-style:none;padding:0;margin:0 0 8px}.lines li,.total{display:flex;justify-content:space-between;padding:6px 0;border-bottom:1px solid #e2e8f0;margin:0}
.total{font-weight:700;border:0;margin-bottom:12px}label{display:block;font-weight:600;font-size:14px;margin:10px 0 4px}input{width:100%;padding:10px 12px;border:1px solid #cbd5e1;border-radius:8px;font-size:16px}
.row{display:flex;gap:12px}.row>div{flex:1}button{margin-top:16px;width:100%;padding:12px;border:0;border-radius:8px;background:#4f46e5;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
button[disabled]{opacity:.6}.error{color:#b91c1c;margin:10px 0 0}.hint{color:#64748b;font-size:13px}.done{color:#047857}`;

const SANDBOX_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('sandbox-data').textContent);
  var form = document.getElementById('pay');
  if (!form) return;
  var message = document.getElementById('message');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var button = form.querySelector('button');
    button.disabled = true;
    button.textContent = 'Processing…';
    message.hidden = true;
    fetch(data.payUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-TOKEN': data.csrf },
      body: JSON.stringify({ order_id: data.orderId, card_number: document.getElementById('card').value })
    }).then(function (res) {
      return res.json().then(function (body) { return { ok: res.ok, body: body }; });
    }).then(function (result) {
      if (result.ok) { window.top.location.href = result.body.redirect; return; }
      message.textContent = (result.body && result.body.message ? result.body.message : 'The payment failed.').replace(/^card_number: /, '');
      message.hidden = false;
      button.disabled = false;
      button.textContent = 'Pay';
    }).catch(function () {
      message.textContent = 'Network error. Please try again.';
      message.hidden = false;
      button.disabled = false;
      button.textContent = 'Pay';
    });
  });
})();
`;
