import { describe, expect, it, vi } from 'vitest';

// The module reads the page's JSON blocks when it loads; this test runs outside a browser.
vi.stubGlobal('document', { getElementById: () => null });
const { sandboxCheckoutUrl } = await import('./sandbox.ts');

describe('sandbox checkout frame', () => {
  it('opens the card form with the order id only: no e-mail, items or success URL the server would ignore', () => {
    const url = sandboxCheckoutUrl({
      orderId: 'ord_123',
      email: 'buyer@example.com',
      items: [{ priceId: 'pri_01aaaaaaaaaaaaaaaaaaaaaaaa', quantity: 1 }],
      successUrl: 'https://shop.example/checkout?status=success',
      container: 'checkout-frame',
    } as Parameters<typeof sandboxCheckoutUrl>[0]);
    expect(url).toBe('/sandbox/checkout?order_id=ord_123');
  });
});
