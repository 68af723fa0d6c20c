import { describe, expect, it } from 'vitest';
import { demoteHeadings, splitContentHtml, withIcons } from './content-html.ts';

const PAGE =
  '<p>The lead.</p><section><h2 id="who-we-are">Who we are</h2>\n<p>We.</p></section><section><h2 id="terms">Q&amp;A &quot;terms&quot; &#39;here&#39; <code>x</code></h2>\n<h3 id="more">More</h3></section>';

describe('splitContentHtml', () => {
  it('parts the lead from the sections and lists the sections with their text', () => {
    const { lead, body, sections } = splitContentHtml(PAGE);
    expect(lead).toBe('<p>The lead.</p>');
    expect(body).toBe(PAGE.slice('<p>The lead.</p>'.length));
    expect(sections).toEqual([
      { id: 'who-we-are', title: 'Who we are' },
      { id: 'terms', title: `Q&A "terms" 'here' x` },
    ]);
  });

  it('takes a page without sections as all lead', () => {
    expect(splitContentHtml('<p>Only.</p>')).toEqual({ lead: '<p>Only.</p>', body: '', sections: [] });
  });
});

describe('demoteHeadings', () => {
  it('lowers every heading one level and drops its id', () => {
    expect(demoteHeadings(PAGE)).toContain('<h3>Who we are</h3>');
    expect(demoteHeadings(PAGE)).toContain('<h4>More</h4>');
    expect(demoteHeadings(PAGE)).not.toMatch(/<h2|id="/);
  });
});

describe('withIcons', () => {
  it("fills an icon badge with the shop's line icon, hidden from screen readers", () => {
    const html = withIcons('<li><span class="icon-badge icon-code"></span><strong>Code</strong></li>');
    expect(html).toMatch(
      /^<li><span class="icon-badge" aria-hidden="true"><svg class="icon" width="20" height="20"[^>]*><path d="m16 18 6-6-6-6M8 6l-6 6 6 6"\/><\/svg><\/span><strong>Code<\/strong><\/li>$/,
    );
  });
});
