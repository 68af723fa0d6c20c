import { describe, expect, it, vi } from 'vitest';

// The module reads the page's JSON blocks when it loads; this test runs outside a browser.
vi.stubGlobal('document', { getElementById: () => null });
const { frameHeightFrom, sandboxCheckoutUrl } = await import('./sandbox.ts');

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

describe('sandbox frame height', () => {
  it('takes the height the sandbox page posts, never below the initial 450', () => {
    expect(frameHeightFrom({ type: 'kitshop:sandbox-height', height: 612.4 })).toBe(613);
    expect(frameHeightFrom({ type: 'kitshop:sandbox-height', height: 120 })).toBe(450);
  });

  it('ignores any other message, and heights no card form has', () => {
    for (const data of [
      null,
      'kitshop:sandbox-height',
      { type: 'other', height: 600 },
      { type: 'kitshop:sandbox-height', height: '600' },
      { type: 'kitshop:sandbox-height', height: Number.NaN },
      { type: 'kitshop:sandbox-height', height: -1 },
      { type: 'kitshop:sandbox-height', height: 1e9 },
    ])
      expect(frameHeightFrom(data)).toBeNull();
  });
});
