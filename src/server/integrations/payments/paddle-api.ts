/**
 * Paddle Billing's API, for the calls the server makes itself (refunds). Requests carry
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
  api: { apiUrl: string; apiKey: string | undefined },
  refund: RefundRequest,
  fetchImpl: typeof fetch = fetch,
): Promise<{ adjustmentId: string; status: string }> {
  if (!api.apiKey) throw new PaddleApiError('PADDLE_API_KEY is not set: refunds cannot be requested from Paddle.');
  let response: Response;
  try {
    response = await fetchImpl(`${api.apiUrl}/adjustments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        action: 'refund',
        transaction_id: refund.transactionId,
        reason: refund.reason,
        items: refund.itemIds.map((item_id) => ({ item_id, type: 'full' })),
      }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new PaddleApiError(`Paddle could not be reached: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => null)) as {
    data?: { id?: string; status?: string };
    error?: { detail?: string; code?: string };
  } | null;
  if (!response.ok || !body?.data?.id)
    throw new PaddleApiError(
      `Paddle refused the refund (${response.status}): ${body?.error?.detail ?? body?.error?.code ?? 'no details'}`,
      response.status,
    );
  return { adjustmentId: body.data.id, status: body.data.status ?? 'pending_approval' };
}
