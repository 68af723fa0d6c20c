import { clientConfig } from '../../../lib/initial-data.ts';
import { openPaddleCheckout } from './paddle.ts';
import { openSandboxCheckout } from './sandbox.ts';

/** One line of the order in the payment provider's terms: its price id, always quantity 1. */
export type PaymentLineItem = { priceId: string; quantity: number };

/** The company and address the checkout was told, in Paddle.js's terms. */
export type CheckoutBusiness = {
  name: string;
  taxIdentifier: string | null;
  countryCode: string;
  postalCode: string | null;
  city: string | null;
  firstLine: string | null;
};

export type PaymentFrameRequest = {
  /** Each kit not purchased before, by the provider's price id (the cart line's `paddle_id`). */
  items: PaymentLineItem[];
  /** The buyer's e-mail, filled in for them when known. */
  email: string | null;
  /** The order the server opened; it comes back in the provider's webhook as custom data. */
  orderId: string;
  /** Absolute URL Paddle sends the buyer to after paying (`/checkout?status=success`; the sandbox's server names it itself). */
  successUrl: string;
  /** With Paddle: the discount the applied code mirrors (the sandbox priced the order with it already). */
  discountId?: string;
  /** With Paddle: a transaction the server created (an upgrade price), opened by id instead of items. */
  transactionId?: string;
  /** A business buying (the checkout's `Buying for a business`): Paddle's checkout fills its fields in. */
  business?: CheckoutBusiness;
  /** The id of the element the inline frame goes into. */
  container: string;
};

/**
 * Opens the inline payment frame of the configured provider inside `request.container`: Paddle.js
 * (loaded only now, from its own chunk) or the shop's sandbox card form. Rejects when the frame
 * cannot be opened (Paddle not configured or not reachable, container missing).
 */
export function openPaymentFrame(request: PaymentFrameRequest): Promise<void> {
  return clientConfig.payment.provider === 'paddle'
    ? openPaddleCheckout(request, clientConfig.payment)
    : openSandboxCheckout(request);
}
