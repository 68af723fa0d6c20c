import { describe, expect, it } from 'vitest';
import { KeptPages, keptPageKey } from './kept-pages.ts';

describe('kept pages', () => {
  const snapshot = {};

  it('makes room by dropping the page used least recently, one at a time, and keeps the others', () => {
    const pages = new KeptPages<string>(3);
    pages.set(snapshot, '/a', 'A');
    pages.set(snapshot, '/b', 'B');
    pages.set(snapshot, '/c', 'C');
    expect(pages.get(snapshot, '/a')).toBe('A'); // now /b is the least recently used
    pages.set(snapshot, '/d', 'D');
    expect(pages.size).toBe(3);
    expect(pages.get(snapshot, '/b')).toBeUndefined();
    expect([pages.get(snapshot, '/a'), pages.get(snapshot, '/c'), pages.get(snapshot, '/d')]).toEqual(['A', 'C', 'D']);
    // Keeping a page again under its key takes no second place.
    pages.set(snapshot, '/d', 'D2');
    expect(pages.size).toBe(3);
    expect(pages.get(snapshot, '/d')).toBe('D2');
  });

  it('answers only from the snapshot its pages were kept from, and starts over with a new one', () => {
    const pages = new KeptPages<string>(3);
    pages.set(snapshot, '/a', 'A');
    const next = {};
    expect(pages.get(next, '/a')).toBeUndefined();
    expect(pages.get(snapshot, undefined)).toBeUndefined();
    pages.set(next, '/b', 'B');
    expect(pages.size).toBe(1);
    expect(pages.get(snapshot, '/b')).toBeUndefined();
    expect(pages.get(next, '/b')).toBe('B');
  });

  it('keeps a page with an end only until then, and one without for good', () => {
    let now = 1_000;
    const pages = new KeptPages<string>(3, () => now);
    pages.set(snapshot, '/', 'home', 61_000);
    pages.set(snapshot, '/about', 'about');
    now = 60_999;
    expect(pages.get(snapshot, '/')).toBe('home');
    now = 61_000;
    expect(pages.get(snapshot, '/')).toBeUndefined();
    // An ended page takes no place any more.
    expect(pages.size).toBe(1);
    expect(pages.get(snapshot, '/about')).toBe('about');
  });

  it('finds a URL under its route path, and nothing for a query or a URL outside the base path', () => {
    expect(keptPageKey('/', '')).toBe('/');
    expect(keptPageKey('/product/alpha-kit', '')).toBe('/product/alpha-kit');
    expect(keptPageKey('/product/alpha-kit?ref=x', '')).toBeUndefined();
    expect(keptPageKey('/shop', '/shop')).toBe('/');
    expect(keptPageKey('/shop/', '/shop')).toBe('/');
    expect(keptPageKey('/shop/about', '/shop')).toBe('/about');
    expect(keptPageKey('/shopping/about', '/shop')).toBeUndefined();
    expect(keptPageKey('/about', '/shop')).toBeUndefined();
  });
});
