import { describe, expect, it } from 'vitest';
import type { CodeOffer } from '../../../common/schemas/orders.ts';
import { codeAnnouncement, codePrice } from './code-offer.ts';

const offer = (overrides: Partial<CodeOffer>): CodeOffer => ({
  code: 'SPRING',
  percent_off: 20,
  amount_off: null,
  kit_ids: null,
  prices: [
    { id: 1, title: 'Alpha Kit', price: 39.2, original_price: 49 },
    { id: 2, title: 'Beta Kit', price: 15.6, original_price: 19.5 },
  ],
  last_day: null,
  ...overrides,
});

describe('a linked code', () => {
  it('is announced with what it takes off, on which kits, and its last day', () => {
    expect(codeAnnouncement(offer({}))).toBe('Code SPRING is active: 20% off every kit.');
    expect(codeAnnouncement(offer({ last_day: '2026-12-02' }))).toBe(
      'Code SPRING is active: 20% off every kit until 2 December 2026.',
    );
    expect(codeAnnouncement(offer({ percent_off: null, amount_off: 10 }))).toBe(
      'Code SPRING is active: $10 off your order.',
    );
    expect(
      codeAnnouncement(offer({ kit_ids: [1], prices: [{ id: 1, title: 'Alpha Kit', price: 44, original_price: 49 }] })),
    ).toBe('Code SPRING is active: 20% off Alpha Kit.');
    expect(codeAnnouncement(offer({ kit_ids: [1, 2] }))).toBe('Code SPRING is active: 20% off Alpha Kit, Beta Kit.');
  });

  it('prices only the kits it takes something off, and nothing when it is not active', () => {
    const active = { status: 'active' as const, offer: offer({}) };
    expect(codePrice(active, 1)).toEqual({ price: 39.2, original: 49 });
    expect(codePrice(active, 3)).toBeNull();
    expect(
      codePrice(
        { status: 'active', offer: offer({ prices: [{ id: 1, title: 'A', price: 0 + 49, original_price: 49 }] }) },
        1,
      ),
    ).toBeNull();
    expect(codePrice({ status: 'none' }, 1)).toBeNull();
    expect(codePrice({ status: 'refused', code: 'X', message: 'No.' }, 1)).toBeNull();
  });
});
