import { appUrl } from '../../../lib/initial-data.ts';
import type { PaymentFrameRequest } from './index.ts';

/** The inline frame's initial height (the spec's 450). */
export const FRAME_HEIGHT_PX = 450;

/**
 * The sandbox card form's address for this order. The server renders the form from the order
 * alone (its lines, total and owner come from the database), so the order id is all it takes.
 */
export function sandboxCheckoutUrl(request: Pick<PaymentFrameRequest, 'orderId'>): string {
  return appUrl(`/sandbox/checkout?${new URLSearchParams({ order_id: request.orderId })}`);
}

/**
 * The sandbox provider (the default): the server's own card form in an inline frame, paid through
 * the same signed-webhook path as Paddle. The request's items, e-mail and success URL are Paddle's
 * business: once paid, the server's answer names where to go (`/checkout?status=success` under the
 * base path) and the form's script sends the whole tab there.
 */
export async function openSandboxCheckout(request: PaymentFrameRequest): Promise<void> {
  const container = document.getElementById(request.container);
  if (!container) throw new Error(`Payment frame container #${request.container} is missing`);
  const frame = document.createElement('iframe');
  frame.title = 'Payment';
  frame.className = 'payment-frame';
  frame.src = sandboxCheckoutUrl(request);
  frame.style.height = `${FRAME_HEIGHT_PX}px`;
  frame.style.width = '100%';
  frame.style.border = '0';
  container.replaceChildren(frame);
}
