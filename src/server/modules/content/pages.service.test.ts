import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from '../../../../tests/setup/test-app.ts';
import { ANALYTICS_CONSENT_KEY, ANALYTICS_CONSENT_MONTHS, RETENTION_DAYS } from '../../../common/constants.ts';
import { CONTENT_PAGE_NAMES, contentPageSchema } from '../../../common/schemas/content.ts';
import { loadConfig } from '../../config.ts';
import { registerErrorHandler } from '../../http/errors.ts';
import { registerContentPageRoutes } from './pages.routes.ts';
import {
  type ContentValues,
  contentValues,
  loadContentPages,
  loadShopContentPages,
  refundTermValues,
} from './pages.service.ts';

const LEGAL = path.join(DEMO_CATALOG, 'legal');
const config = (env: Record<string, string> = {}) =>
  loadConfig({ DATABASE_URL: 'postgres://localhost/none', DATA_DIR: os.tmpdir(), CATALOG_DIR: DEMO_CATALOG, ...env });

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A folder with the six texts, each a copy of `body` (or what `files` gives it). */
function textsDir(files: Record<string, string> = {}, body = '---\ntitle: A text\n---\n\nLead.\n\n## One\n\nText.\n') {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-legal-'));
  dirs.push(dir);
  for (const name of CONTENT_PAGE_NAMES) writeFileSync(path.join(dir, `${name}.md`), files[name] ?? body);
  return dir;
}
const VALUES: ContentValues = { support_email: 'help@example.com', secure_cookies: false };

describe("the shop's texts (content/legal)", () => {
  const pages = loadShopContentPages(config({ SUPPORT_EMAIL: 'help@shop.example', MESSAGE_RETENTION_DAYS: '400' }));

  it('renders the six pages with their titles and the legal effective date', () => {
    for (const name of CONTENT_PAGE_NAMES) {
      const page = contentPageSchema.parse(pages.get(name));
      expect(page.name).toBe(name);
      expect(page.effective_date).toBe(name === 'about' ? null : '2025-07-01');
      expect(page.html).not.toMatch(/\{\{|\}\}|<script|javascript:/);
    }
    expect(pages.get('licence')!.title).toBe('Licence Agreement');
    expect(pages.get('refund-policy')!.title).toBe('Refund Policy');
  });

  it('states the support e-mail, the retention limits and the cookie names of this configuration', () => {
    const privacy = pages.get('privacy-policy')!.html;
    expect(privacy).toContain('<a href="mailto:help@shop.example">help@shop.example</a>');
    expect(privacy).toContain('Contact messages</strong>: 400 days');
    expect(privacy).toContain(`for ${RETENTION_DAYS.downloadLogsAndIps} days`);
    expect(privacy).toContain(`deleted after ${RETENTION_DAYS.unverifiedAccounts} days`);
    const cookies = pages.get('cookie-policy')!.html;
    expect(cookies).toContain('<code>kitshop_session</code>');
    expect(cookies).toContain(`kept for\n${ANALYTICS_CONSENT_MONTHS} months`);
    expect(cookies).toContain(`<code>${ANALYTICS_CONSENT_KEY}</code>`);
    expect(cookies).not.toContain('__Host-');
    const secure = loadShopContentPages(config({ PUBLIC_URL: 'https://shop.example' })).get('cookie-policy')!.html;
    expect(secure).toContain('<code>__Host-kitshop_session</code>');
    expect(secure).toContain('Their names start with <code>__Host-</code>');
  });

  it('keeps the refund facts and the sections every page links to', () => {
    const refund = pages.get('refund-policy')!.html;
    for (const fact of ['within 14 days', 'within 7 days', '5–10 business days', 'change of mind', 'purchased twice'])
      expect(refund).toContain(fact);
    // What a partial refund keeps, and what a refund of a purchase a bundle upgrade counted ends.
    expect(refund).toContain('keeps the kit and its licence');
    expect(refund).toContain('<h2 id="bundle-upgrades">Bundles bought at an upgrade price</h2>');
    expect(refund).toContain('the upgrade ends with it');
    expect(pages.get('privacy-policy')!.html).toContain('<section><h2 id="retention">How long we keep data</h2>');
    expect(pages.get('licence')!.html).toContain('<section><h2 id="parties">1. Parties and definitions</h2>');
    // The lead comes first, then one section per heading.
    expect(pages.get('about')!.html).toMatch(/^<p>We sell production-ready starter kits/);
    expect(pages.get('licence')!.html.match(/<section>/g)).toHaveLength(12);
  });

  it('states the refund terms of content/refund-terms.json, which the web app states too', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-terms-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'terms.json'), JSON.stringify({ days: 30, critical_bug_fix_days: 3 }));
    const values = { ...contentValues(config()), ...refundTermValues(path.join(dir, 'terms.json')) };
    const refund = loadContentPages([LEGAL], values).get('refund-policy')!.html;
    expect(refund).toContain('within 30 days of purchase');
    expect(refund).toContain('cannot be fixed within 3 days');
    expect(refund).not.toMatch(/\b14 days/);
    writeFileSync(path.join(dir, 'terms.json'), JSON.stringify({ days: '14' }));
    expect(() => refundTermValues(path.join(dir, 'terms.json'))).toThrow();
  });

  it('puts links to the shop under its base path', () => {
    const shop = loadShopContentPages(config({ BASE_PATH: '/shop' }));
    expect(shop.get('cookie-policy')!.html).toContain('<a href="/shop/privacy-policy">Privacy Policy</a>');
    expect(shop.get('cookie-policy')!.html).toContain('href="https://support.google.com/chrome/answer/95647"');
    expect(shop.get('cookie-policy')!.html).toContain('<a href="#managing-cookies">');
  });
});

describe('loadContentPages', () => {
  it('sanitises what a text holds: no script, event handler or javascript: link survives', () => {
    const dir = textsDir({
      about:
        '---\ntitle: About\n---\n\n<script>alert(1)</script>\n\n## Hi\n\n<img src="x.png" onerror="alert(2)"> [x](javascript:alert(3)) <b onclick="alert(4)">bold</b>\n',
    });
    const html = loadContentPages([dir], VALUES).get('about')!.html;
    expect(html).not.toMatch(/<script|alert\(1\)|onerror|onclick|javascript:/);
    expect(html).toContain('<b>bold</b>');
  });

  it('fills in placeholders and the effective date, and keeps a part only when its flag is on', () => {
    const dir = textsDir({
      'refund-policy':
        '---\ntitle: Refunds\neffective_date: 2026-03-05\n---\n\nFrom {{effective_date}}: write to {{ support_email }}.{{#secure_cookies}} Secure.{{/secure_cookies}}\n',
    });
    const page = loadContentPages([dir], VALUES).get('refund-policy')!;
    expect(page.effective_date).toBe('2026-03-05');
    expect(page.html).toBe(
      '<p>From 5 March 2026: write to <a href="mailto:help@example.com">help@example.com</a>.</p>',
    );
    const on = loadContentPages([dir], { ...VALUES, secure_cookies: true }).get('refund-policy')!;
    expect(on.html).toContain('help@example.com</a>. Secure.</p>');
  });

  it('refuses an unknown placeholder, a bad date, a missing title or a missing text', () => {
    const unknown = textsDir({ about: '---\ntitle: About\n---\nMail {{supportemail}}.\n' });
    expect(() => loadContentPages([unknown], VALUES)).toThrow('about.md: unknown placeholder {{supportemail}}');
    const noDate = textsDir({ licence: '---\ntitle: Licence\n---\nSince {{effective_date}}.\n' });
    expect(() => loadContentPages([noDate], VALUES)).toThrow('licence.md: unknown placeholder {{effective_date}}');
    const badDate = textsDir({ licence: '---\ntitle: L\neffective_date: July 2025\n---\nText.\n' });
    expect(() => loadContentPages([badDate], VALUES)).toThrow('licence.md: effective_date must be a day, YYYY-MM-DD');
    const untitled = textsDir({ about: '---\neffective_date: 2025-07-01\n---\nText.\n' });
    expect(() => loadContentPages([untitled], VALUES)).toThrow('about.md: front matter needs a title');
    const empty = mkdtempSync(path.join(os.tmpdir(), 'kitshop-legal-'));
    dirs.push(empty);
    expect(() => loadContentPages([empty], VALUES)).toThrow('The text about.md is missing');
  });

  it("reads each text from the first folder that has it, so CATALOG_DIR/legal overrides the shop's own", () => {
    const own = textsDir({ about: '---\ntitle: Our story\n---\nOurs.\n' });
    const empty = mkdtempSync(path.join(os.tmpdir(), 'kitshop-legal-'));
    dirs.push(empty);
    writeFileSync(path.join(empty, 'licence.md'), '---\ntitle: Custom licence\n---\nCustom.\n');
    const pages = loadContentPages([empty, own], VALUES);
    expect(pages.get('licence')!.title).toBe('Custom licence');
    expect(pages.get('about')!.title).toBe('Our story');
  });

  it('gives a heading the id written after it, and the usual slug otherwise', () => {
    const dir = textsDir({ about: '---\ntitle: A\n---\n\n## Who we are {#team}\n\n## What we sell\n' });
    expect(loadContentPages([dir], VALUES).get('about')!.html).toBe(
      '<section><h2 id="team">Who we are</h2></section><section><h2 id="what-we-sell">What we sell</h2></section>',
    );
  });
});

describe('GET /api/content/:name', () => {
  async function app() {
    const fastify = Fastify();
    registerErrorHandler(fastify);
    registerContentPageRoutes(fastify, loadContentPages([LEGAL], contentValues(config())));
    return fastify;
  }

  it('answers a page as JSON, cacheable', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/api/content/refund-policy' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const page = contentPageSchema.parse(res.json());
    expect(page).toMatchObject({ name: 'refund-policy', title: 'Refund Policy', effective_date: '2025-07-01' });
  });

  it('answers 404 with a message for a name that is not a page', async () => {
    const fastify = await app();
    for (const name of ['nope', '__proto__', 'constructor', 'privacy-policy.md']) {
      const res = await fastify.inject({ method: 'GET', url: `/api/content/${name}` });
      expect(res.statusCode, name).toBe(404);
      expect(res.json()).toEqual({ message: 'There is no such page.' });
    }
  });
});
