import { appUrl } from '../../../lib/initial-data.ts';
import type { PaymentFrameRequest } from './index.ts';

/** The inline frame's initial height (the spec's 450). */
export const FRAME_HEIGHT_PX = 450;

/** The sandbox card form's address for this order (the server renders it; paying goes to `success_url`). */
export function sandboxCheckoutUrl(request: Omit<PaymentFrameRequest, 'container'>): string {
  const params = new URLSearchParams({
    order_id: request.orderId,
    email: request.email ?? '',
    success_url: request.successUrl,
    items: request.items.map((item) => item.priceId).join(','),
  });
  return appUrl(`/sandbox/checkout?${params}`);
}

/**
 * The sandbox provider (the default): the server's own card form in an inline frame, paid through
 * the same signed-webhook path as Paddle. The form itself takes the buyer to the success URL.
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
