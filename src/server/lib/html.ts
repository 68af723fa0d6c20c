import GithubSlugger from 'github-slugger';
import { Marked } from 'marked';
import { sanitizeHtml } from '../../common/html-sanitizer.ts';

export { sanitizeHtml };

/** A heading's text as a reader sees it: tags dropped, Marked's escapes undone. */
function headingText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:quot|#39|lt|gt);/g, (entity) => ({ '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' })[entity]!)
    .replace(/&amp;/g, '&');
}

/** GitHub's heading ids, unique within one document (a repeated heading gets -1, -2, ...). */
const slugger = new GithubSlugger();

const markdown = new Marked({ gfm: true, async: false });
markdown.use({
  renderer: {
    heading({ tokens, depth }) {
      // `## Title {#an-id}` keeps a section's address when its title is reworded.
      const parsed = this.parser.parseInline(tokens);
      const custom = /\s*\{#([a-z0-9_-]+)\}\s*$/i.exec(parsed);
      const inner = custom ? parsed.slice(0, custom.index) : parsed;
      const id = slugger.slug(custom ? custom[1]! : headingText(inner));
      return `<h${depth}${id ? ` id="${id}"` : ''}>${inner}</h${depth}>\n`;
    },
    link({ href, title, tokens }) {
      const inner = this.parser.parseInline(tokens);
      const external = /^https?:/i.test(href);
      const titleAttr = title ? ` title="${title.replace(/"/g, '&quot;')}"` : '';
      return `<a href="${href.replace(/"/g, '%22')}"${titleAttr}${external ? ' target="_blank" rel="noopener noreferrer"' : ''}>${inner}</a>`;
    },
  },
});

/** Markdown -> sanitised HTML, with ids on headings (`{#id}` after a heading sets its own) so pages can link to their sections. */
export function renderMarkdown(source: string): string {
  slugger.reset();
  return sanitizeHtml(markdown.parse(source) as string);
}
