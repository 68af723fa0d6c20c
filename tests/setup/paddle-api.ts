import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the parts of Paddle Billing's API the server calls: `POST /adjustments`
 * (refunds from the owner console), `POST /transactions` (upgrade prices), `GET
 * /transactions/{id}/invoice` and `GET /adjustments/{id}/credit-note` (a PDF link, `disposition`
 * `attachment` or `inline`), and `POST /transactions/{id}/revise` (business details, once per
 * transaction: a second revision answers Paddle's `transaction_revised_limit_reached`). It checks the API
 * key and the documented request shape (400 `bad_request` otherwise), records every request, and
 * answers as Paddle does.
 */
export type SeenRequest = { method?: string; url?: string; auth?: string; body: unknown };

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => resolve(data));
  });

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function adjustmentShapeOk(b: Record<string, unknown>) {
  return (
    b.action === 'refund' &&
    typeof b.transaction_id === 'string' &&
    b.transaction_id.startsWith('txn_') &&
    typeof b.reason === 'string' &&
    b.reason.length > 0 &&
    Array.isArray(b.items) &&
    b.items.length > 0 &&
    b.items.every(
      (i: { item_id?: unknown; type?: unknown; amount?: unknown }) =>
        typeof i.item_id === 'string' &&
        i.item_id.startsWith('txnitm_') &&
        (i.type === 'full' || (i.type === 'partial' && typeof i.amount === 'string')),
    )
  );
}

/** An item of `POST /transactions`: a catalog price by id, or a non-catalog price with its product. */
function transactionItemOk(item: unknown) {
  if (!isObject(item) || item.quantity !== 1) return false;
  if (typeof item.price_id === 'string') return /^pri_[a-z0-9]+$/.test(item.price_id) && item.price === undefined;
  const price = item.price;
  if (!isObject(price) || !isObject(price.unit_price)) return false;
  const product = price.product;
  const productOk =
    typeof price.product_id === 'string' ||
    (isObject(product) && typeof product.name === 'string' && typeof product.tax_category === 'string');
  return (
    typeof price.description === 'string' &&
    price.description.length > 0 &&
    productOk &&
    typeof price.unit_price.amount === 'string' &&
    /^\d+$/.test(price.unit_price.amount) &&
    price.unit_price.currency_code === 'USD'
  );
}

function transactionShapeOk(b: Record<string, unknown>) {
  return (
    Array.isArray(b.items) &&
    b.items.length > 0 &&
    b.items.every(transactionItemOk) &&
    (b.currency_code === undefined || b.currency_code === 'USD') &&
    (b.discount_id === undefined || (typeof b.discount_id === 'string' && b.discount_id.startsWith('dsc_'))) &&
    (b.custom_data === undefined || isObject(b.custom_data))
  );
}

/** The transaction Paddle answers: a `txn_` id, status ready, every item with its price id. */
function transactionAnswer(b: Record<string, unknown>) {
  const id = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex')}`;
  return {
    data: {
      id: id('txn'),
      status: 'ready',
      currency_code: 'USD',
      custom_data: b.custom_data ?? null,
      discount_id: b.discount_id ?? null,
      items: (b.items as Record<string, unknown>[]).map((item) =>
        typeof item.price_id === 'string'
          ? { price: { id: item.price_id }, quantity: 1 }
          : { price: { ...(item.price as object), id: id('pri') }, quantity: 1 },
      ),
    },
  };
}

/** `until`: the answer waits for it, so a test can look at the shop while Paddle is being asked. */
type RefundAnswer = { status: number; body: unknown; until?: Promise<void> };

/** A revision's body: `customer.name`, `business.name`/`tax_identifier`, `address` lines, nothing else. */
function revisionShapeOk(b: Record<string, unknown>) {
  const allowed = (value: unknown, keys: string[]) =>
    value === undefined ||
    (isObject(value) &&
      Object.keys(value).length > 0 &&
      Object.entries(value).every(([k, v]) => keys.includes(k) && (v === null || typeof v === 'string')));
  return (
    Object.keys(b).length > 0 &&
    Object.keys(b).every((k) => ['customer', 'business', 'address'].includes(k)) &&
    allowed(b.customer, ['name']) &&
    allowed(b.business, ['name', 'tax_identifier']) &&
    allowed(b.address, ['first_line', 'second_line', 'city', 'region'])
  );
}

const DOCUMENT = /^\/(transactions\/(txn_[a-z0-9]+)\/invoice|adjustments\/(adj_[a-z0-9]+)\/credit-note)(\?.*)?$/;
const REVISE = /^\/transactions\/(txn_[a-z0-9]+)\/revise$/;

export async function startPaddleApi(apiKey: string) {
  const seen: SeenRequest[] = [];
  let refundAnswer: RefundAnswer = { status: 201, body: {} };
  const revised = new Set<string>();
  /** Transactions Paddle does not know (a 404 `entity_not_found`). */
  const unknown = new Set<string>();
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return send(res, 403, { error: { type: 'request_error', code: 'forbidden', detail: 'Bad API key' } });
    const json = req.method === 'POST' && req.headers['content-type']?.startsWith('application/json') && isObject(body);
    const badShape = { error: { type: 'request_error', code: 'bad_request', detail: 'Bad shape' } };
    if (req.url === '/adjustments') {
      if (!json || !adjustmentShapeOk(body as Record<string, unknown>)) return send(res, 400, badShape);
      const answer = refundAnswer;
      await answer.until;
      return send(res, answer.status, answer.body);
    }
    if (req.url === '/transactions') {
      if (!json || !transactionShapeOk(body as Record<string, unknown>)) return send(res, 400, badShape);
      return send(res, 201, transactionAnswer(body as Record<string, unknown>));
    }
    const document = req.method === 'GET' ? DOCUMENT.exec(req.url ?? '') : null;
    if (document) {
      const id = document[2] ?? document[3]!;
      const disposition = new URLSearchParams(document[4]?.slice(1) ?? '').get('disposition') ?? 'attachment';
      if (!['attachment', 'inline'].includes(disposition)) return send(res, 400, badShape);
      if (unknown.has(id))
        return send(res, 404, {
          error: { type: 'request_error', code: 'entity_not_found', detail: `Entity ${id} not found` },
        });
      return send(res, 200, {
        data: { url: `https://sandbox-invoice.paddle.test/${id}.pdf?disposition=${disposition}&token=${id.slice(4)}` },
        meta: { request_id: 'stand-in' },
      });
    }
    const revise = req.method === 'POST' ? REVISE.exec(req.url ?? '') : null;
    if (revise) {
      const id = revise[1]!;
      if (!json || !revisionShapeOk(body as Record<string, unknown>)) return send(res, 400, badShape);
      if (revised.has(id))
        return send(res, 400, {
          error: {
            type: 'request_error',
            code: 'transaction_revised_limit_reached',
            detail: "You can't revise an already revised transaction",
          },
        });
      revised.add(id);
      return send(res, 200, { data: { id, status: 'completed', revised_at: new Date().toISOString() } });
    }
    return send(res, 404, { error: { type: 'request_error', code: 'not_found', detail: 'No such endpoint' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    /** What the next refunds answer (after their shape passed), once `until` has settled. */
    answerRefunds(answer: RefundAnswer) {
      refundAnswer = answer;
    },
    /** Marks a transaction revised already (as if in Paddle's dashboard). */
    markRevised(transactionId: string) {
      revised.add(transactionId);
    },
    /** Makes Paddle answer 404 for this transaction's or adjustment's document. */
    forget(id: string) {
      unknown.add(id);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
