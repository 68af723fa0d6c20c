import { describe, expect, it } from 'vitest';
import { ICON_NAMES } from '../../../common/constants.ts';
import { pageTypeFor } from '../../app/page-type.ts';
import { hasIcon } from '../../components/icon.tsx';
import './product-icons.ts';
import { splitFaq } from './faq-split.ts';

describe('splitFaq', () => {
  it.each([
    [0, 0, 0],
    [1, 1, 0],
    [4, 2, 2],
    [5, 3, 2],
    [7, 4, 3],
  ])('splits %i questions into %i and %i', (n, first, second) => {
    const [a, b] = splitFaq(Array.from({ length: n }, (_, i) => i));
    expect([a.length, b.length]).toEqual([first, second]);
    expect([...a, ...b]).toEqual(Array.from({ length: n }, (_, i) => i));
  });
});

describe('pageTypeFor', () => {
  it.each([
    ['/cart', 'cart'],
    ['/checkout', 'checkout'],
    ['/login', 'login'],
    ['/product/x', 'product'],
    ['/', undefined],
    ['/register', undefined],
    ['/product', undefined],
    ['/docs/x', undefined],
  ])('%s -> %s', (path, type) => {
    expect(pageTypeFor(path)).toBe(type);
  });
});

describe('icons', () => {
  it('draws every icon a kit may name once the product page has added its own', () => {
    expect(ICON_NAMES.filter((name) => !hasIcon(name))).toEqual([]);
    for (const name of ['zoom', 'external', 'bolt']) expect(hasIcon(name)).toBe(true);
  });
});
