import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sanitizeHtml as inTheBrowser } from '../../src/common/html-sanitizer.ts';
import { sanitizeHtml as onTheServer } from '../../src/server/lib/html.ts';

// One sanitiser on both sides: the server's content and the browser's blog teaser give the same
// answer for the same hostile HTML.
const HOSTILE = [
  '<article class="blog-teaser"><h3><a href="/blog/a" onclick="steal()">Ship it</a></h3><time datetime="2025-09-12">12 September 2025</time>',
  '<p style="position:fixed" class="position-fixed top-0">Read <a href="javascript:alert(1)">this</a> and <a href="jav&#x09;ascript:alert(1)">that</a> and <a href="https://x.dev" target="_top" rel="opener">docs</a></p>',
  '<img src="x" onerror="alert(1)"><img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<svg><script>alert(1)</script></svg><style>body{display:none}</style><iframe src="https://evil"></iframe>',
  '<form action="https://evil"><input name="card"></form><!-- <img src=x onerror=alert(1)> -->',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(2)></style></mglyph></table></mtext></math>',
  '<h2 id="über-uns">Über uns</h2><h2 id="a b">x</h2><code class="language-ts">x</code></article>',
].join('');

const CLEAN =
  '<article class="blog-teaser"><h3><a href="/blog/a">Ship it</a></h3><time datetime="2025-09-12">12 September 2025</time>' +
  '<p class>Read <a href>this</a> and <a href>that</a> and <a href="https://x.dev" target rel="noopener noreferrer">docs</a></p>' +
  '<img src><img src><table></table><h2 id="über-uns">Über uns</h2><h2 id>x</h2><code class="language-ts">x</code></article>';

describe('the HTML sanitiser', () => {
  it('gives the server and the browser the same safe answer for a hostile sample', () => {
    expect(onTheServer(HOSTILE)).toBe(CLEAN);
    expect(inTheBrowser(HOSTILE)).toBe(onTheServer(HOSTILE));
  });

  it("keeps only the text pages' own box classes", () => {
    expect(
      onTheServer(
        '<div class="term-list"><ul><li>a</li></ul></div><div class="callout kit-contents"><span class="icon-badge icon-code"></span></div><div class="d-none"></div><span class="icon-badge icon-x1"></span>',
      ),
    ).toBe(
      '<div class="term-list"><ul><li>a</li></ul></div><div class="callout kit-contents"><span class="icon-badge icon-code"></span></div><div class></div><span class></span>',
    );
  });

  it('is the one the blog teaser loads (no second sanitiser in the web app)', () => {
    const teaser = readFileSync(new URL('../../src/web/components/blog-teaser.tsx', import.meta.url), 'utf8');
    expect(teaser).toContain("await import('../../common/html-sanitizer.ts')");
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(Object.keys(pkg.dependencies)).not.toContain('dompurify');
  });
});
