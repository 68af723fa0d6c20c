import { describe, expect, it } from 'vitest';
import {
  alreadyPurchasedAmount,
  analyticsTax,
  cartBreakdown,
  cartSubtotal,
  checkoutLinePrice,
  checkoutTotal,
  paymentItems,
} from './totals.ts';

const line = (price: number, purchased = false, paddle_id = `pri_${price}`) => ({ price, purchased, paddle_id });

describe('cart totals', () => {
  it('sums the prices rounded to 2 decimals', () => {
    expect(cartSubtotal([])).toBe(0);
    expect(cartSubtotal([line(49), line(29.5)])).toBe(78.5);
    expect(cartSubtotal([line(0.1), line(0.2)])).toBe(0.3);
    expect(cartSubtotal([line(19.99), line(19.99), line(19.99)])).toBe(59.97);
  });

  it('leaves already purchased items out of the checkout total', () => {
    const items = [line(49), line(29.5, true), line(10.25)];
    expect(checkoutTotal(items)).toBe(59.25);
    expect(alreadyPurchasedAmount(items)).toBe(29.5);
    expect(cartSubtotal(items)).toBe(88.75);
  });

  it('totals 0 when every item was purchased before (checkout is then disabled)', () => {
    expect(checkoutTotal([line(49, true), line(99, true)])).toBe(0);
    expect(checkoutTotal([])).toBe(0);
  });

  it('shows price 0 at checkout for a purchased item', () => {
    expect(checkoutLinePrice(line(49, true))).toBe(0);
    expect(checkoutLinePrice(line(49))).toBe(49);
  });

  it('reports half the total as tax, rounded to 2 decimals', () => {
    expect(analyticsTax(98)).toBe(49);
    expect(analyticsTax(49.5)).toBe(24.75);
    expect(analyticsTax(0.05)).toBe(0.03);
    expect(analyticsTax(59.97)).toBe(29.99);
    expect(analyticsTax(0)).toBe(0);
  });

  it('asks the payment frame for quantity 1 of each unpurchased item', () => {
    const items = [line(49, false, 'pri_a'), line(29, true, 'pri_b'), line(19, false, 'pri_c')];
    expect(paymentItems(items)).toEqual([
      { priceId: 'pri_a', quantity: 1 },
      { priceId: 'pri_c', quantity: 1 },
    ]);
  });

  it('breaks a discounted cart with an upgraded bundle down so that the rows add up to the total', () => {
    const items = [
      { price: 34.3, original_price: 49, purchased: false, paddle_id: 'a' },
      { price: 19.5, original_price: 19.5, purchased: true, paddle_id: 'b' },
      { price: 70, original_price: 149, upgrade: { price: 100 }, purchased: false, paddle_id: 'c' },
      { price: 29, original_price: 29, included_in: 'Bundle', purchased: false, paddle_id: 'd' },
    ];
    expect(cartBreakdown(items)).toEqual({
      subtotal: 246.5,
      excluded: 48.5,
      upgrade: 49,
      discount: 44.7,
      total: 104.3,
    });
    expect(checkoutTotal(items)).toBe(104.3);
    expect(paymentItems(items).map((i) => i.priceId)).toEqual(['a', 'c']);
  });
});
