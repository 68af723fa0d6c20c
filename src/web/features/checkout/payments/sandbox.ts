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

/** What the sandbox page posts to its parent whenever its height changes (sandbox/checkout.js). */
const HEIGHT_MESSAGE = 'kitshop:sandbox-height';
/** Taller than any card form: a message claiming more is not the form's. */
const MAX_FRAME_HEIGHT_PX = 4000;

/**
 * The frame's height for a message from the sandbox page: its content height, never below the
 * spec's initial 450; null for any other message.
 */
export function frameHeightFrom(data: unknown): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, height } = data as { type?: unknown; height?: unknown };
  if (type !== HEIGHT_MESSAGE || typeof height !== 'number' || !Number.isFinite(height)) return null;
  if (height < 0 || height > MAX_FRAME_HEIGHT_PX) return null;
  return Math.max(FRAME_HEIGHT_PX, Math.ceil(height));
}

/**
 * Grows the frame to its page's height, as Paddle.js does with its own frame: the page posts its
 * height, and only a message from this frame's window on the shop's own origin counts. The
 * listener goes once the frame has left the page.
 */
function followFrameHeight(frame: HTMLIFrameElement): void {
  const onMessage = (event: MessageEvent) => {
    if (!frame.isConnected) {
      window.removeEventListener('message', onMessage);
      return;
    }
    if (event.origin !== window.location.origin || event.source !== frame.contentWindow) return;
    const height = frameHeightFrom(event.data);
    if (height !== null) frame.style.height = `${height}px`;
  };
  window.addEventListener('message', onMessage);
}

/**
 * The sandbox provider (the default): the server's own card form in an inline frame, paid through
 * the same signed-webhook path as Paddle. The request's items, e-mail and success URL are Paddle's
 * business: once paid, the server's answer names where to go (`/checkout?status=success` under the
 * base path) and the form's script sends the whole tab there. The frame opens 450 px high and then
 * takes its page's height.
 */
export async function openSandboxCheckout(request: PaymentFrameRequest): Promise<void> {
  const container = document.getElementById(request.container);
  if (!container) throw new Error(`Payment frame container #${request.container} is missing`);
  const frame = document.createElement('iframe');
  frame.title = 'Payment';
  frame.className = 'payment-frame';
  frame.src = sandboxCheckoutUrl(request);
  // The spec's initial height, like Paddle's frameInitialHeight; the page's own height follows.
  frame.height = String(FRAME_HEIGHT_PX);
  frame.style.width = '100%';
  frame.style.border = '0';
  followFrameHeight(frame);
  container.replaceChildren(frame);
}
