import xss from 'xss';

// xss is CommonJS: its exports are on the default import, in Node and in the browser bundle alike.
const { FilterXSS, safeAttrValue: defaultSafeAttrValue } = xss as unknown as typeof import('xss');

/**
 * The shop's one HTML sanitiser, run by the server on content (Markdown, setup guides, the blog)
 * and by the browser on the blog teaser fragment. An allow-list: structure, text formatting, links
 * (http, https, mailto, relative) and images; no scripts, styles, event handlers, forms or frames.
 */
const TAGS: Record<string, string[]> = {
  a: ['href', 'title', 'target', 'rel'],
  abbr: ['title'],
  article: [],
  b: [],
  blockquote: [],
  br: [],
  code: [],
  dd: [],
  del: [],
  div: [],
  dl: [],
  dt: [],
  em: [],
  figcaption: [],
  figure: [],
  footer: [],
  h1: ['id'],
  h2: ['id'],
  h3: ['id'],
  h4: ['id'],
  h5: ['id'],
  h6: ['id'],
  header: [],
  hr: [],
  i: [],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
  kbd: [],
  li: [],
  ol: ['start'],
  p: [],
  pre: [],
  s: [],
  section: [],
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
  time: ['datetime'],
  tr: [],
  ul: [],
};
/** Allowed on every tag above; `class` only with the names the shop styles content by. */
const EVERY_TAG = ['class', 'lang'];
const ALLOWED = Object.fromEntries(
  Object.entries(TAGS).map(([tag, attributes]) => [tag, [...attributes, ...EVERY_TAG]]),
);

const SAFE_URL = /^(?:https?:|mailto:|\/|#|\.{0,2}\/|[a-z0-9-]+(?:\/|$))/i;
/**
 * Code highlighting (`language-*`, from Markdown), the blog's own (`blog-*`, the teaser card) and
 * the text pages' boxes (content/legal: `term-list`, `callout`, `kit-contents`, `icon-badge icon-*`).
 */
const CLASS_NAME = '(?:language-[a-z0-9+-]+|blog-[a-z0-9-]+|term-list|callout|kit-contents|icon-badge|icon-[a-z]+)';
const CLASS_NAMES = new RegExp(`^${CLASS_NAME}(?: ${CLASS_NAME})*$`, 'i');
/** The ids github-slugger makes for headings: letters of any script, digits, `_` and `-`. */
const HEADING_ID = /^[\p{L}\p{M}\p{N}_-]+$/u;

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
    if (name === 'class' && !CLASS_NAMES.test(value.trim())) return '';
    if (name === 'id' && !HEADING_ID.test(value)) return '';
    if (name === 'lang' && !/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i.test(value)) return '';
    if (name === 'target' && value !== '_blank') return '';
    if (name === 'rel') return 'noopener noreferrer';
    return defaultSafeAttrValue(tag, name, value, cssFilter);
  },
});

export function sanitizeHtml(html: string): string {
  return filter.process(html);
}
