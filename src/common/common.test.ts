import { describe, expect, it } from 'vitest';
import { longDate } from './dates.ts';
import { centsToDollars, formatPrice, formatUsd, parseDollarsToCents, roundDollars } from './money.ts';
import { groupedCount } from './numbers.ts';
import { canonicalScreenPath, matchScreen, normaliseBasePath } from './paths.ts';

describe('money', () => {
  it.each([
    ['49', 4900],
    ['49.5', 4950],
    ['49.50', 4950],
    ['0.01', 1],
    [' 12.30 ', 1230],
  ])('parses %s dollars to %i cents', (text, cents) => {
    expect(parseDollarsToCents(text)).toBe(cents);
  });

  it.each(['', 'free', '1.234', '-5', '1e3', '12,00', '99999999'])('refuses %s', (text) => {
    expect(parseDollarsToCents(text)).toBeNull();
  });

  it('converts and formats for the wire and the screen', () => {
    expect(centsToDollars(4950)).toBe(49.5);
    expect(formatUsd(49.5)).toBe('USD 49.50');
    expect(formatPrice(149)).toBe('$149');
    expect(formatPrice(49.5)).toBe('$49.50');
    expect(formatPrice(0.99)).toBe('$0.99');
    expect(roundDollars(0.1 + 0.2)).toBe(0.3);
    expect(roundDollars(19.999)).toBe(20);
  });
});

describe('paths', () => {
  it('normalises base paths', () => {
    expect(normaliseBasePath('/')).toBe('');
    expect(normaliseBasePath('/shop/')).toBe('/shop');
    expect(normaliseBasePath('shop')).toBe('/shop');
  });

  it('matches the screens and nothing else', () => {
    expect(matchScreen('/')).toEqual({ pattern: '/', params: {} });
    expect(matchScreen('/product/next-kit')).toEqual({ pattern: '/product/:sefId', params: { sefId: 'next-kit' } });
    expect(matchScreen('/docs/next-kit/deploy/')).toEqual({
      pattern: '/docs/:sefId/:page',
      params: { sefId: 'next-kit', page: 'deploy' },
    });
    expect(matchScreen('/product')).toBeNull();
    expect(matchScreen('/product/a/b')).toBeNull();
    expect(matchScreen('/product/%E0%A4%A')).toBeNull();
  });

  it('spells each screen path one way: no trailing slash, percent-encoded only where a path must be', () => {
    const canonical = (path: string) => canonicalScreenPath(matchScreen(path)!);
    expect(canonical('/')).toBe('/');
    expect(canonical('/about/')).toBe('/about');
    expect(canonical('/product/%6Eext-%6bit')).toBe('/product/next-kit');
    expect(canonical('/docs/next-kit/a%3Ab+c%2C%20d/')).toBe('/docs/next-kit/a:b+c,%20d');
    expect(canonical('/user-panel/item/a%2fb')).toBe('/user-panel/item/a%2Fb');
    expect(canonical('/user-panel/item/caf%C3%A9')).toBe('/user-panel/item/caf%C3%A9');
  });
});

describe('dates and counts, written as Intl writes them (without it)', () => {
  it('writes every day of 2024 and some far-off ones as en-GB long dates', () => {
    const intl = (day: string) =>
      new Date(`${day}T12:00:00Z`).toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      });
    const days: string[] = ['1999-12-31', '2000-02-29', '2038-01-19', '2099-06-05'];
    for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2025, 0, 1); t += 86_400_000) {
      days.push(new Date(t).toISOString().slice(0, 10));
    }
    for (const day of days) expect(longDate(day), day).toBe(intl(day));
    expect(longDate('2025-07-01')).toBe('1 July 2025');
    expect(longDate('2025-10-06')).toBe('6 October 2025');
    expect(longDate('not a day')).toBe('Invalid Date');
  });

  it('groups a count in threes, as en-US does', () => {
    for (const n of [0, 1, 12, 999, 1000, 1234, 99_999, 100_000, 1_234_567, 1_000_000_000, -4321]) {
      expect(groupedCount(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
