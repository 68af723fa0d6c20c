import type { CheckoutCustomer, Paddle } from '@paddle/paddle-js';
import type { PaymentConfig } from '../../../../common/page-data.ts';
import type { CheckoutBusiness, PaymentFrameRequest } from './index.ts';
import { FRAME_HEIGHT_PX } from './sandbox.ts';

let loading: Promise<Paddle> | null = null;

/** Paddle.js, initialised once per page; its code is fetched only when a buyer pays through Paddle. */
function loadPaddle(config: PaymentConfig): Promise<Paddle> {
  const token = config.clientToken;
  if (!token) return Promise.reject(new Error('Paddle is not configured: the client token is missing'));
  loading ??= (async () => {
    const { initializePaddle } = await import('@paddle/paddle-js');
    const paddle = await initializePaddle({ token, environment: config.environment });
    if (!paddle) throw new Error('Paddle.js could not be loaded');
    return paddle;
  })().catch((error: unknown) => {
    loading = null; // a blocked or failed script load may work on the next try
    throw error;
  });
  return loading;
}

/**
 * The buyer for Paddle.js: the e-mail, and a business's address and company (Paddle.js takes a
 * business only with its tax number; the company name then reaches Paddle's invoice).
 */
function paddleCustomer(email: string | null, business: CheckoutBusiness | undefined): CheckoutCustomer | undefined {
  if (!email) return undefined;
  if (!business) return { email };
  const address = Object.fromEntries(
    Object.entries({
      countryCode: business.countryCode,
      postalCode: business.postalCode,
      city: business.city,
      firstLine: business.firstLine,
    }).filter(([, value]) => value),
  );
  return {
    email,
    address,
    ...(business.taxIdentifier ? { business: { name: business.name, taxIdentifier: business.taxIdentifier } } : {}),
  };
}

/** Paddle Billing's inline checkout inside the container, light theme, English, initial height 450. */
export async function openPaddleCheckout(request: PaymentFrameRequest, config: PaymentConfig): Promise<void> {
  const paddle = await loadPaddle(config);
  paddle.Checkout.open({
    // A server-created transaction carries its items, custom data and discount already.
    ...(request.transactionId
      ? { transactionId: request.transactionId }
      : {
          items: request.items,
          customData: { order_id: request.orderId },
          ...(request.discountId ? { discountId: request.discountId } : {}),
        }),
    ...(request.email ? { customer: paddleCustomer(request.email, request.business) } : {}),
    settings: {
      displayMode: 'inline',
      frameTarget: request.container,
      frameInitialHeight: FRAME_HEIGHT_PX,
      frameStyle: 'width: 100%; min-width: 312px; background-color: transparent; border: none;',
      theme: 'light',
      locale: 'en',
      successUrl: request.successUrl,
    },
  });
}
