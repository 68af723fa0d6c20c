import { beforeEach, describe, expect, it, vi } from 'vitest';

const open = vi.fn();
const initializePaddle = vi.fn(async () => ({ Checkout: { open } }));
vi.mock('@paddle/paddle-js', () => ({ initializePaddle }));

// The module reads the page's JSON blocks when it loads; this test runs outside a browser.
vi.stubGlobal('document', { getElementById: () => null });
const { openPaddleCheckout } = await import('./paddle.ts');

describe('Paddle inline checkout', () => {
  beforeEach(() => {
    open.mockClear();
  });

  it('opens Paddle.js with the items, e-mail, order id, inline light English frame of 450 px and the success URL', async () => {
    await openPaddleCheckout(
      {
        items: [
          { priceId: 'pri_01aaaaaaaaaaaaaaaaaaaaaaaa', quantity: 1 },
          { priceId: 'pri_01bbbbbbbbbbbbbbbbbbbbbbbb', quantity: 1 },
        ],
        email: 'buyer@example.com',
        orderId: 'ord_123',
        successUrl: 'https://shop.example/checkout?status=success',
        container: 'checkout-frame',
      },
      { provider: 'paddle', clientToken: 'live_abc', environment: 'production' },
    );
    expect(initializePaddle).toHaveBeenCalledWith({ token: 'live_abc', environment: 'production' });
    expect(open).toHaveBeenCalledWith({
      items: [
        { priceId: 'pri_01aaaaaaaaaaaaaaaaaaaaaaaa', quantity: 1 },
        { priceId: 'pri_01bbbbbbbbbbbbbbbbbbbbbbbb', quantity: 1 },
      ],
      customer: { email: 'buyer@example.com' },
      customData: { order_id: 'ord_123' },
      settings: expect.objectContaining({
        displayMode: 'inline',
        frameTarget: 'checkout-frame',
        frameInitialHeight: 450,
        theme: 'light',
        locale: 'en',
        successUrl: 'https://shop.example/checkout?status=success',
      }),
    });
  });

  it('passes the Paddle discount of the code, and opens a server-created transaction by id', async () => {
    const request = { items: [{ priceId: 'pri_a', quantity: 1 }], email: null, successUrl: 'x', container: 'c' };
    const config = { provider: 'paddle', clientToken: 'live_abc', environment: 'production' } as const;
    await openPaddleCheckout({ ...request, orderId: 'ord_1', discountId: 'dsc_01spring' }, config);
    expect(open).toHaveBeenLastCalledWith(
      expect.objectContaining({ items: request.items, customData: { order_id: 'ord_1' }, discountId: 'dsc_01spring' }),
    );
    await openPaddleCheckout({ ...request, orderId: 'ord_2', transactionId: 'txn_01upgrade' }, config);
    const opened = open.mock.lastCall![0];
    expect(opened).toMatchObject({ transactionId: 'txn_01upgrade' });
    expect(opened.items).toBeUndefined();
  });

  it('fills in the business and its address when the buyer buys for one', async () => {
    const config = { provider: 'paddle', clientToken: 'live_abc', environment: 'production' } as const;
    const request = { items: [{ priceId: 'pri_a', quantity: 1 }], orderId: 'ord_1', successUrl: 'x', container: 'c' };
    const business = {
      name: 'Analytical Engines GmbH',
      taxIdentifier: 'DE123456789',
      countryCode: 'DE',
      postalCode: '10117',
      city: 'Berlin',
      firstLine: null,
    };
    await openPaddleCheckout({ ...request, email: 'ada@example.com', business }, config);
    expect(open.mock.lastCall![0].customer).toEqual({
      email: 'ada@example.com',
      address: { countryCode: 'DE', postalCode: '10117', city: 'Berlin' },
      business: { name: 'Analytical Engines GmbH', taxIdentifier: 'DE123456789' },
    });
    // Without a tax number Paddle.js takes no business: the address still goes.
    await openPaddleCheckout(
      { ...request, email: 'ada@example.com', business: { ...business, taxIdentifier: null } },
      config,
    );
    expect(open.mock.lastCall![0].customer).toEqual({
      email: 'ada@example.com',
      address: { countryCode: 'DE', postalCode: '10117', city: 'Berlin' },
    });
  });

  it('refuses to open without a client token', async () => {
    await expect(
      openPaddleCheckout(
        { items: [], email: null, orderId: 'o', successUrl: 'x', container: 'c' },
        { provider: 'paddle', clientToken: null, environment: 'sandbox' },
      ),
    ).rejects.toThrow(/client token/);
  });
});
