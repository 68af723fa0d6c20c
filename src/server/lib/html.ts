import { createRequire } from 'node:module';
import GithubSlugger from 'github-slugger';
import { Marked } from 'marked';

// xss is CommonJS and Node's ESM loader cannot see all of its named exports.
const { FilterXSS, safeAttrValue: defaultSafeAttrValue } = createRequire(import.meta.url)(
  'xss',
) as typeof import('xss');

/**
 * Every piece of HTML that reaches a page from content or another server passes through here.
 * An allow-list: structure, text formatting, links (http, https, mailto, relative) and images;
 * no scripts, styles, event handlers or frames.
 */
const ALLOWED: Record<string, string[]> = {
  a: ['href', 'title', 'target', 'rel'],
  abbr: ['title'],
  b: [],
  blockquote: [],
  br: [],
  code: ['class'],
  dd: [],
  del: [],
  div: [],
  dl: [],
  dt: [],
  em: [],
  h1: ['id'],
  h2: ['id'],
  h3: ['id'],
  h4: ['id'],
  h5: ['id'],
  h6: ['id'],
  hr: [],
  i: [],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
  kbd: [],
  li: [],
  ol: ['start'],
  p: [],
  pre: [],
  s: [],
  small: [],
  span: [],
  strong: [],
  sub: [],
  sup: [],
  table: [],
  tbody: [],
  td: ['align'],
  th: ['align'],
  thead: [],
  tr: [],
  ul: [],
};

/** The ids github-slugger makes: lower-case letters of any script, digits, `_` and `-`. */
const HEADING_ID = /^[\p{L}\p{M}\p{N}_-]+$/u;

const SAFE_URL = /^(?:https?:|mailto:|\/|#|\.{0,2}\/|[a-z0-9-]+(?:\/|$))/i;

const filter = new FilterXSS({
  whiteList: ALLOWED,
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript'],
  allowCommentTag: false,
  safeAttrValue(tag, name, value, cssFilter) {
    if (name === 'href' || name === 'src') {
      const trimmed = value.trim();
      if (!SAFE_URL.test(trimmed) || /^\s*(?:javascript|data|vbscript):/i.test(trimmed)) return '';
    }
    if (name === 'class' && !/^language-[a-z0-9+-]+$/i.test(value)) return '';
    if (name === 'id' && !HEADING_ID.test(value)) return '';
    if (name === 'target' && value !== '_blank') return '';
    if (name === 'rel') return 'noopener noreferrer';
    return defaultSafeAttrValue(tag, name, value, cssFilter);
  },
});

export function sanitizeHtml(html: string): string {
  return filter.process(html);
}

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
      const inner = this.parser.parseInline(tokens);
      const id = slugger.slug(headingText(inner));
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

/** Markdown -> sanitised HTML, with ids on headings so pages can link to their sections. */
export function renderMarkdown(source: string): string {
  slugger.reset();
  return sanitizeHtml(markdown.parse(source) as string);
}
