/**
 * Paddle Billing's API, for the calls the server makes itself (refunds, upgrade transactions,
 * invoices and their revisions). Requests carry
 * `Authorization: Bearer PADDLE_API_KEY` and go to PADDLE_API_URL (Paddle's by environment).
 */

export class PaddleApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaddleApiError';
  }
}

type PaddleApi = { apiUrl: string; apiKey: string | undefined };
type PaddleAnswer<T> = { data?: T; error?: { detail?: string; code?: string } } | null;

/** One authenticated JSON POST to Paddle's API: its status and its parsed body (null when not JSON). */
const postToPaddle = <T>(api: PaddleApi, path: string, payload: object, fetchImpl: typeof fetch) =>
  callPaddle<T>(api, 'POST', path, payload, fetchImpl);

/** One authenticated call to Paddle's API (a JSON body for POST): its status and its parsed body. */
async function callPaddle<T>(
  api: PaddleApi,
  method: 'GET' | 'POST',
  path: string,
  payload: object | undefined,
  fetchImpl: typeof fetch,
) {
  let response: Response;
  try {
    response = await fetchImpl(`${api.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${api.apiKey}`,
        ...(payload ? { 'content-type': 'application/json' } : {}),
        accept: 'application/json',
      },
      body: payload ? JSON.stringify(payload) : undefined,
      // Paddle's API answers where it is asked; a redirect would carry the API key elsewhere.
      redirect: 'error',
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new PaddleApiError(`Paddle could not be reached: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => null)) as PaddleAnswer<T>;
  const reason = body?.error?.detail ?? body?.error?.code ?? 'no details';
  return { ok: response.ok, status: response.status, data: body?.data, reason };
}

export type RefundRequest = {
  transactionId: string;
  reason: string;
  /** Transaction item ids (`txnitm_...`), each refunded in full. */
  itemIds: string[];
};

/**
 * Asks Paddle to refund lines of a transaction (`POST /adjustments`, action `refund`). Paddle answers
 * with the adjustment, usually `pending_approval`; access goes when its approved adjustment arrives
 * by webhook.
 */
export async function requestRefund(
  api: PaddleApi,
  refund: RefundRequest,
  fetchImpl: typeof fetch = fetch,
): Promise<{ adjustmentId: string; status: string }> {
  if (!api.apiKey) throw new PaddleApiError('PADDLE_API_KEY is not set: refunds cannot be requested from Paddle.');
  const answer = await postToPaddle<{ id?: string; status?: string }>(
    api,
    '/adjustments',
    {
      action: 'refund',
      transaction_id: refund.transactionId,
      reason: refund.reason,
      items: refund.itemIds.map((item_id) => ({ item_id, type: 'full' })),
    },
    fetchImpl,
  );
  if (!answer.ok || !answer.data?.id)
    throw new PaddleApiError(`Paddle refused the refund (${answer.status}): ${answer.reason}`, answer.status);
  return { adjustmentId: answer.data.id, status: answer.data.status ?? 'pending_approval' };
}

/** A line of a transaction: a catalog price by id, or a price made for this transaction alone. */
export type TransactionItem =
  | { priceId: string }
  | { name: string; description: string; unitPriceCents: number; kitId: number };

/**
 * Creates a transaction on the server (`POST /transactions`), for prices Paddle's catalog does
 * not hold (a bundle's upgrade price): Paddle.js then opens it by id. Non-catalog prices carry a
 * non-catalog product and the kit id in their custom data; the order id travels in the
 * transaction's custom data, as a checkout opened by Paddle.js carries it. Answers the
 * transaction id and, for each item in order, the price id Paddle gave it.
 */
export async function createTransaction(
  api: PaddleApi,
  request: { orderId: string; items: TransactionItem[]; discountId?: string | null },
  fetchImpl: typeof fetch = fetch,
): Promise<{ transactionId: string; priceIds: string[] }> {
  if (!api.apiKey)
    throw new PaddleApiError('PADDLE_API_KEY is not set: upgrade prices need server-created transactions.');
  const items = request.items.map((item) =>
    'priceId' in item
      ? { price_id: item.priceId, quantity: 1 }
      : {
          quantity: 1,
          price: {
            description: item.description,
            name: item.name,
            product: { name: item.name, tax_category: 'standard' },
            unit_price: { amount: String(item.unitPriceCents), currency_code: 'USD' },
            quantity: { minimum: 1, maximum: 1 },
            custom_data: { kit_id: item.kitId },
          },
        },
  );
  const answer = await postToPaddle<{ id?: string; items?: { price?: { id?: string } }[] }>(
    api,
    '/transactions',
    {
      items,
      currency_code: 'USD',
      collection_mode: 'automatic',
      custom_data: { order_id: request.orderId },
      ...(request.discountId ? { discount_id: request.discountId } : {}),
    },
    fetchImpl,
  );
  const priceIds = (answer.data?.items ?? []).map((i) => i.price?.id ?? '');
  if (!answer.ok || !answer.data?.id || priceIds.length !== items.length || priceIds.some((id) => !id))
    throw new PaddleApiError(`Paddle refused the transaction (${answer.status}): ${answer.reason}`, answer.status);
  return { transactionId: answer.data.id, priceIds };
}

/**
 * A short-lived link to the PDF Paddle issued for a transaction (`GET /transactions/{id}/invoice`),
 * or to a refund's credit note (`GET /adjustments/{id}/credit-note`): `disposition=attachment` has
 * the browser download it. The link expires, so it is fetched for each request and never kept.
 */
export async function documentUrl(
  api: PaddleApi,
  document: { transactionId: string } | { adjustmentId: string },
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  if (!api.apiKey) throw new PaddleApiError('PADDLE_API_KEY is not set: Paddle’s invoices cannot be fetched.');
  const path =
    'transactionId' in document
      ? `/transactions/${encodeURIComponent(document.transactionId)}/invoice`
      : `/adjustments/${encodeURIComponent(document.adjustmentId)}/credit-note`;
  const answer = await callPaddle<{ url?: string }>(api, 'GET', `${path}?disposition=attachment`, undefined, fetchImpl);
  const url = answer.data?.url;
  if (!answer.ok || !url || !/^https?:\/\//.test(url))
    throw new PaddleApiError(`Paddle answered ${answer.status}: ${answer.reason}`, answer.status);
  return url;
}

/** What a revision adds to a paid transaction: Paddle's `customer`, `business` and `address` (no country). */
export type TransactionRevision = {
  customerName?: string;
  business: { name: string; taxIdentifier?: string };
  address?: { firstLine?: string; city?: string };
};

/**
 * Revises a billed or completed transaction's customer details (`POST /transactions/{id}/revise`),
 * which Paddle allows once: its refusal (`transaction_revised_limit_reached` and the like) is thrown
 * with Paddle's own words.
 */
export async function reviseTransaction(
  api: PaddleApi,
  transactionId: string,
  revision: TransactionRevision,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  if (!api.apiKey) throw new PaddleApiError('PADDLE_API_KEY is not set: transactions cannot be revised.');
  const address = Object.fromEntries(
    Object.entries({ first_line: revision.address?.firstLine, city: revision.address?.city }).filter(([, v]) => v),
  );
  const answer = await postToPaddle<{ id?: string }>(
    api,
    `/transactions/${encodeURIComponent(transactionId)}/revise`,
    {
      ...(revision.customerName ? { customer: { name: revision.customerName } } : {}),
      business: {
        name: revision.business.name,
        ...(revision.business.taxIdentifier ? { tax_identifier: revision.business.taxIdentifier } : {}),
      },
      ...(Object.keys(address).length > 0 ? { address } : {}),
    },
    fetchImpl,
  );
  if (!answer.ok) throw new PaddleApiError(`Paddle refused the revision: ${answer.reason}`, answer.status);
}
