import { iconSvg } from '../components/icon.tsx';

/** One entry of a text page's table of contents: a section's `<h2 id>` and its text. */
export type ContentSection = { id: string; title: string };

/** The entities Marked and the sanitiser write into text. */
const decode = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(?:quot|#39|#x27|lt|gt);/g,
      (e) => ({ '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&lt;': '<', '&gt;': '>' })[e]!,
    )
    .replace(/&amp;/g, '&');

/**
 * A server-rendered text page (ContentPage.html): its lead (before the first section), its sections'
 * HTML, and the sections for a table of contents. Plain string work, the same on the server and in
 * the browser.
 */
export function splitContentHtml(html: string): { lead: string; body: string; sections: ContentSection[] } {
  const start = html.indexOf('<section>');
  const lead = (start < 0 ? html : html.slice(0, start)).trim();
  const body = start < 0 ? '' : html.slice(start);
  const sections = [...body.matchAll(/<section>\s*<h2 id="([^"]+)">([\s\S]*?)<\/h2>/g)].map((m) => ({
    id: m[1]!,
    title: decode(m[2]!).trim(),
  }));
  return { lead, body, sections };
}

/** Headings one level lower and without ids, for a text shown inside another page (the licence dialog). */
export const demoteHeadings = (html: string) =>
  html.replace(
    /<(\/?)h([1-5])(?:\s[^>]*)?>/g,
    (_tag, close: string, level: string) => `<${close}h${Number(level) + 1}>`,
  );

/** `<span class="icon-badge icon-NAME"></span>` in a text filled with the shop's line icon of that name. */
export const withIcons = (html: string, size = 20) =>
  html.replace(
    /<span class="icon-badge icon-([a-z]+)"><\/span>/g,
    (_span, name: string) => `<span class="icon-badge" aria-hidden="true">${iconSvg(name, size)}</span>`,
  );
