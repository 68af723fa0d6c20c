import { describe, expect, it } from 'vitest';
import { spreadDiscount, upgradePriceCents } from './pricing.ts';

const lines = (...prices: [number, boolean?][]) =>
  prices.map(([baseCents, eligible = true]) => ({ baseCents, eligible }));

describe('spreadDiscount', () => {
  it('takes a percentage off each eligible line, rounded to the cent', () => {
    expect(spreadDiscount(lines([4900], [2999], [1000, false]), { percentOff: 30, amountOffCents: null })).toEqual([
      1470, 900, 0,
    ]);
    expect(spreadDiscount(lines([4900]), { percentOff: 100, amountOffCents: null })).toEqual([4900]);
  });

  it('spreads an amount once over the eligible lines in proportion, to the cent', () => {
    const off = spreadDiscount(lines([4900], [2900], [9900, false]), { percentOff: null, amountOffCents: 1000 });
    expect(off.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(off).toEqual([628, 372, 0]);
    const odd = spreadDiscount(lines([100], [100], [100]), { percentOff: null, amountOffCents: 100 });
    expect(odd).toEqual([34, 33, 33]);
  });

  it('never takes a line below zero, nor more than the eligible lines cost', () => {
    expect(spreadDiscount(lines([500], [300]), { percentOff: null, amountOffCents: 5000 })).toEqual([500, 300]);
    expect(spreadDiscount(lines([0], [300]), { percentOff: null, amountOffCents: 100 })).toEqual([0, 100]);
    expect(spreadDiscount(lines([500, false]), { percentOff: null, amountOffCents: 100 })).toEqual([0]);
  });
});

describe('upgradePriceCents', () => {
  it('is the bundle price less what was paid, never below zero or the floor', () => {
    expect(upgradePriceCents(9900, 4900, null)).toBe(5000);
    expect(upgradePriceCents(9900, 12000, null)).toBe(0);
    expect(upgradePriceCents(9900, 8000, 2900)).toBe(2900);
    expect(upgradePriceCents(9900, 0, 2900)).toBe(9900);
    expect(upgradePriceCents(9900, 0, 19900)).toBe(9900);
  });
});

describe('upgradePriceCents for a licence tier', () => {
  it('charges an owner of Solo the tier price less what Solo cost them, never below the kit floor', () => {
    // Team 399.00 for an owner of Solo bought at 149.00, with and without a floor.
    expect(upgradePriceCents(39900, 14900, null)).toBe(25000);
    expect(upgradePriceCents(39900, 14900, 29900)).toBe(29900);
    // A Solo bought with a code counts what was paid, not the list price.
    expect(upgradePriceCents(39900, 7450, null)).toBe(32450);
  });
});
