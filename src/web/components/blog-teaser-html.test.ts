import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../common/html-sanitizer.ts';
import { isSameOrigin, isTeaserFragment } from './blog-teaser-html.ts';

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

  it('keeps the parts of a teaser through the sanitiser, and nothing that runs', () => {
    const fragment =
      '<article class="blog-teaser"><h3><a href="/blog/slug">Title</a></h3><time datetime="2025-09-12">12 September 2025</time><p>excerpt</p><a href="/blog/slug">Read more</a></article>';
    expect(sanitizeHtml(fragment)).toBe(fragment);
    const hostile = sanitizeHtml(
      '<p style="color:red" data-x="1" aria-hidden="true">hi</p><form><input></form><svg onload="x()"></svg><script>x()</script>',
    );
    expect(hostile).toBe('<p>hi</p>');
  });

  it('tells same-origin pictures from others', () => {
    const page = 'https://shop.example/shop/';
    expect(isSameOrigin('/shop/blog/cover.png', page)).toBe(true);
    expect(isSameOrigin('cover.png', page)).toBe(true);
    expect(isSameOrigin('https://cdn.example/cover.png', page)).toBe(false);
    expect(isSameOrigin('http://[bad', page)).toBe(false);
  });
});
