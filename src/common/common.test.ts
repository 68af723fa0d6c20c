import { describe, expect, it } from 'vitest';
import { centsToDollars, formatPrice, formatUsd, parseDollarsToCents, roundDollars } from './money.ts';
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
