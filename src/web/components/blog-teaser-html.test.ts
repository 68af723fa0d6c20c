import { describe, expect, it } from 'vitest';
import { isSameOrigin, isTeaserFragment, SANITIZE_OPTIONS } from './blog-teaser-html.ts';

describe('blog teaser fragment', () => {
  it('accepts the fragment the server sends', () => {
    expect(
      isTeaserFragment(
        '<article class="blog-teaser"><h3><a href="/blog/slug">Title</a></h3><time datetime="2025-09-12">12 September 2025</time><p>excerpt</p><a href="/blog/slug">Read more</a></article>',
      ),
    ).toBe(true);
  });

  it('rejects an empty body and a whole page', () => {
    expect(isTeaserFragment('')).toBe(false);
    expect(isTeaserFragment('  \n ')).toBe(false);
    expect(isTeaserFragment('<!doctype html><html><body><div id="root"></div></body></html>')).toBe(false);
    expect(isTeaserFragment('<html lang="en"><p>x</p></html>')).toBe(false);
  });

  it('keeps the parts of a teaser and nothing that runs', () => {
    for (const tag of ['article', 'h3', 'a', 'time', 'p']) expect(SANITIZE_OPTIONS.ALLOWED_TAGS).toContain(tag);
    for (const tag of ['script', 'style', 'iframe', 'form', 'object', 'svg'])
      expect(SANITIZE_OPTIONS.ALLOWED_TAGS).not.toContain(tag as never);
    expect(SANITIZE_OPTIONS.ALLOWED_ATTR).toContain('datetime');
    expect(SANITIZE_OPTIONS.ALLOWED_ATTR).not.toContain('style' as never);
  });

  it('tells same-origin pictures from others', () => {
    const page = 'https://shop.example/shop/';
    expect(isSameOrigin('/shop/blog/cover.png', page)).toBe(true);
    expect(isSameOrigin('cover.png', page)).toBe(true);
    expect(isSameOrigin('https://cdn.example/cover.png', page)).toBe(false);
    expect(isSameOrigin('http://[bad', page)).toBe(false);
  });
});
