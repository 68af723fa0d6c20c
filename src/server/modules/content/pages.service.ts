import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ANALYTICS_CONSENT_KEY, ANALYTICS_CONSENT_MONTHS } from '../../../common/constants.ts';
import { DAY, longDate } from '../../../common/dates.ts';
import { CONTENT_PAGE_NAMES, type ContentPage, contentPageSchema } from '../../../common/schemas/content.ts';
import type { Config } from '../../config.ts';
import { shopCookies } from '../../http/cookies.ts';
import { renderMarkdown } from '../../lib/html.ts';
import { frontMatter } from './blog.service.ts';

/** The about page and the legal texts, rendered once at start: `get(name)` answers at once. */
export type ContentPages = {
  get(name: string): ContentPage | undefined;
  /** The page as the API sends it (JSON, serialised once). */
  json(name: string): string | undefined;
};

/** What a text's `{{placeholder}}` stands for; a boolean one opens a `{{#name}}...{{/name}}` part. */
export type ContentValues = Record<string, string | number | boolean>;

/**
 * The refund policy's terms (content/refund-terms.json), which the web app's home page and price
 * facts state from the same file: a text says them as `{{refund_days}}` and `{{refund_bug_fix_days}}`.
 */
export function refundTermValues(file = path.resolve('content', 'refund-terms.json')): ContentValues {
  const terms = refundTermsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return { refund_days: terms.days, refund_bug_fix_days: terms.critical_bug_fix_days };
}
const refundTermsSchema = z.object({
  days: z.number().int().positive(),
  critical_bug_fix_days: z.number().int().positive(),
});

/** The shop's own facts the texts state, from its configuration, so a text never disagrees with the shop. */
export function contentValues(config: Config): ContentValues {
  const cookies = shopCookies(config);
  return {
    ...refundTermValues(),
    support_email: config.supportEmail,
    session_cookie: cookies.session,
    csrf_cookie: cookies.csrf,
    oidc_cookie: cookies.oidc,
    sign_in_cookie: cookies.signIn,
    secure_cookies: config.secureCookies,
    analytics_consent_months: ANALYTICS_CONSENT_MONTHS,
    analytics_consent_key: ANALYTICS_CONSENT_KEY,
    unverified_account_days: config.retentionDays.unverifiedAccounts,
    download_log_days: config.retentionDays.downloadLogsAndIps,
    contact_message_days: config.retentionDays.contactMessages,
  };
}

/** Where the texts are read from: CATALOG_DIR/legal, then the shop's own content/legal for any it lacks. */
export const contentDirs = (config: Config): string[] => [
  ...new Set([path.join(config.catalogDir, 'legal'), path.resolve('content', 'legal')]),
];

/** `{{#flag}}...{{/flag}}` parts kept or dropped, then `{{name}}` replaced; an unknown name is an error. */
function fillIn(source: string, values: ContentValues, file: string): string {
  const missing = (name: string) => new Error(`${file}: unknown placeholder {{${name}}}`);
  const parts = source.replace(/\{\{#(\w+)\}\}([\s\S]*?)\{\{\/\1\}\}/g, (_all, name: string, inner: string) => {
    if (typeof values[name] !== 'boolean') throw missing(`#${name}`);
    return values[name] ? inner : '';
  });
  return parts.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_all, name: string) => {
    const value = values[name];
    if (value === undefined || typeof value === 'boolean') throw missing(name);
    return String(value);
  });
}

/** Root-relative links under the base path; the lead, then one `<section>` per `<h2>`. */
function layOut(html: string, basePath: string): string {
  const linked = basePath ? html.replace(/ href="\/(?!\/)/g, ` href="${basePath}/`) : html;
  const first = linked.search(/<h2[ >]/);
  if (first < 0) return linked.trim();
  const sections = linked.slice(first).split(/(?=<h2[ >])/);
  return linked.slice(0, first).trim() + sections.map((s) => `<section>${s.trim()}</section>`).join('');
}

/** One text: front matter (`title`, optional `effective_date: YYYY-MM-DD`), then Markdown. */
function loadPage(name: ContentPage['name'], file: string, values: ContentValues, basePath: string): ContentPage {
  const label = path.basename(file);
  const { meta, body } = frontMatter(readFileSync(file, 'utf8'), label);
  if (!meta.title) throw new Error(`${label}: front matter needs a title`);
  const day = meta.effective_date || null;
  if (day !== null && (!DAY.test(day) || Number.isNaN(Date.parse(day)))) {
    throw new Error(`${label}: effective_date must be a day, YYYY-MM-DD`);
  }
  const filled = fillIn(body, { ...values, ...(day ? { effective_date: longDate(day) } : {}) }, label);
  return contentPageSchema.parse({
    name,
    title: meta.title,
    html: layOut(renderMarkdown(filled), basePath),
    effective_date: day,
  });
}

/**
 * Reads and renders every page of CONTENT_PAGE_NAMES from the first of `dirs` that has its
 * `<name>.md`. A missing page, a bad front matter or an unknown placeholder stops the start.
 */
export function loadContentPages(dirs: string[], values: ContentValues, basePath = ''): ContentPages {
  const pages = new Map<string, { page: ContentPage; json: string }>();
  for (const name of CONTENT_PAGE_NAMES) {
    const file = dirs.map((dir) => path.join(dir, `${name}.md`)).find((f) => existsSync(f));
    if (!file) throw new Error(`The text ${name}.md is missing (looked in ${dirs.join(', ')})`);
    const page = loadPage(name, file, values, basePath);
    pages.set(name, { page, json: JSON.stringify(page) });
  }
  return {
    get: (name) => pages.get(name)?.page,
    json: (name) => pages.get(name)?.json,
  };
}

/** The texts for this shop's configuration. */
export const loadShopContentPages = (config: Config): ContentPages =>
  loadContentPages(contentDirs(config), contentValues(config), config.basePath);
