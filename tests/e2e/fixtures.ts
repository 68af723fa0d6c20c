import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import pg from 'pg';
import { COOKIE_NAMES } from '../../src/server/http/cookies.ts';
import { hashSessionToken } from '../../src/server/http/session.ts';
import type { ReceivedMail } from '../setup/smtp.ts';

type State = {
  rootDatabaseUrl: string;
  shopDatabaseUrl: string;
  ownerDatabaseUrl: string;
  mailDir: string;
  claimsFile: string;
  githubUrl: string;
  instanceUrls: Partial<Record<'root' | 'shop' | 'owner', string[]>>;
};
const state = (): State => JSON.parse(readFileSync(new URL('../../.tmp/e2e-state.json', import.meta.url), 'utf8'));

type Fixtures = {
  /** Console errors that this test expects (anything else fails it). */
  allowedConsoleErrors: RegExp[];
  /** Which shop's database `db` opens: the root shop's, the /shop one's (on localhost: passkeys), or the owner console specs' own. */
  database: 'root' | 'shop' | 'owner';
  db: pg.Pool;
  /** Signs the browser in as a new user (a session row and its cookie), removed after the test. */
  signIn: (name: string) => Promise<{ id: number; name: string }>;
  /** A full-page screenshot to test-screens/{name}-{project}.png, when E2E_SCREENSHOTS=1 asks for them. */
  snap: (name: string) => Promise<void>;
};

/**
 * Screenshots are for a person to look at, never compared by a test: taken only on request
 * (`E2E_SCREENSHOTS=1`), so a test run without it, as in CI, spends no time on them.
 */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

/** A page's screenshot into test-screens/ (options as page.screenshot's), when E2E_SCREENSHOTS=1 asks for them. */
export async function keepScreenshot(page: Page, options: { path: string; fullPage?: boolean }) {
  if (SCREENSHOTS) await page.screenshot(options);
}

/** The GitHub stand-in (tests/setup/github-stand-in.ts): its web address, its API under /api, its controls under /_stand-in. */
export const githubUrl = (): string => state().githubUrl;

/**
 * With E2E_STACK=nginx, the addresses of the instances behind a shop's nginx (each asked directly,
 * whatever nginx would pick); none for a shop that is one server.
 */
export const instanceUrls = (shop: 'root' | 'shop' | 'owner'): string[] => state().instanceUrls[shop] ?? [];

/** A pool on one shop's database, for a spec's `beforeAll` (tests use the `db` fixture); the caller ends it. */
export function openDatabase(which: 'root' | 'shop' | 'owner'): pg.Pool {
  const urls = { root: state().rootDatabaseUrl, shop: state().shopDatabaseUrl, owner: state().ownerDatabaseUrl };
  return new pg.Pool({ connectionString: urls[which], max: 2 });
}

/** A session for a user, straight into the database: the cookie value that signs a browser in as them. */
export async function createSession(db: pg.Pool, userId: number): Promise<{ name: string; value: string }> {
  const token = randomBytes(32).toString('base64url');
  await db.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [
    hashSessionToken(token),
    userId,
  ]);
  return { name: COOKIE_NAMES.session, value: token };
}

export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [[], { option: true }],
  database: ['root', { option: true }],
  page: async ({ page, allowedConsoleErrors }, use, testInfo) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !allowedConsoleErrors.some((re) => re.test(message.text()))) {
        errors.push(message.text());
      }
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    await use(page);
    if (testInfo.status === testInfo.expectedStatus) expect(errors, 'console errors').toEqual([]);
  },
  db: async ({ database }, use) => {
    const urls = { root: state().rootDatabaseUrl, shop: state().shopDatabaseUrl, owner: state().ownerDatabaseUrl };
    const url = urls[database];
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    await use(pool);
    await pool.end();
  },
  signIn: async ({ db, context, baseURL }, use) => {
    const created: number[] = [];
    await use(async (name) => {
      const email = `e2e-${randomBytes(6).toString('hex')}@example.com`;
      const { rows } = await db.query('INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id', [name, email]);
      const id = rows[0].id as number;
      created.push(id);
      const token = randomBytes(32).toString('base64url');
      await db.query(
        "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')",
        [hashSessionToken(token), id],
      );
      await context.addCookies([{ name: COOKIE_NAMES.session, value: token, url: baseURL! }]);
      return { id, name };
    });
    if (created.length) {
      // Pages stop first: one still polling (the success screen's kits) would meet its user gone.
      await Promise.all(context.pages().map((open) => open.close()));
      // Orders outlive their buyers in the shop (they are records of sales); a test cleans them up too.
      await db.query('DELETE FROM orders WHERE user_id = ANY($1)', [created]);
      await db.query('DELETE FROM users WHERE id = ANY($1)', [created]);
    }
  },
  snap: async ({ page }, use, testInfo) => {
    await use(async (name) => {
      if (!SCREENSHOTS) return;
      // Walk down the page first so lazy images load, as they would for a reader: each step waits
      // two frames, by when the browser has decided which lazy images to fetch.
      await page.evaluate(async () => {
        const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {
          window.scrollTo({ top: y, behavior: 'instant' });
          await frames();
        }
        window.scrollTo({ top: 0, behavior: 'instant' });
      });
      // Then wait for the images, not for network silence: a payment frame may keep talking.
      await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
      await page.screenshot({ path: `test-screens/${name}-${testInfo.project.name}.png`, fullPage: true });
    });
  },
});

export { expect };

/*
 * Tags in test titles say where a test runs besides the desktop project, which runs every test:
 * `@phone` in the mobile project too (390 px, touch; playwright.config.ts), for tests whose point
 * is what a phone shows; `@stack` in CI's pass through nginx in front of two instances per shop
 * (E2E_STACK=nginx, `--grep @stack`), for what must hold whichever instance answers: sessions and
 * sign-in, CSRF, mail links, payments and their webhooks, downloads, shared pages, an owner's changes
 * to a kit (each instance asked directly too: `instanceUrls`).
 */

/** Nothing on the screen reaches past the viewport sideways (tables scroll or stack inside their cards). */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${new URL(page.url()).pathname} is wider than the window`).toBeLessThanOrEqual(0);
}

/** Puts kits in the cart of a page already on the shop and pays for them at the sandbox checkout. */
export async function payAtSandboxCheckout(page: Page, kitIds: number[]) {
  const items = Object.fromEntries(kitIds.map((id) => [id, id]));
  await page.evaluate((cart) => window.localStorage.setItem('cart', JSON.stringify(cart)), {
    count: kitIds.length,
    items,
  });
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Make Payment' }).click();
  const frame = page.frameLocator('iframe[title="Payment"]');
  await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
  await frame.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/checkout\?status=success$/);
  // The thank-you screen empties the cart once its code has run: a cart filled for the next order
  // before then would be emptied with it.
  await expect.poll(async () => (await readCart(page))?.count).toBe(0);
}

/** The local cart as the page keeps it. */
export const readCart = (page: Page) =>
  page.evaluate(
    () =>
      JSON.parse(window.localStorage.getItem('cart') ?? 'null') as {
        count: number;
        items: Record<string, number>;
      } | null,
  );

/** What the page pushed to window.dataLayer, as plain arrays. */
export const readDataLayer = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer.map((entry) => Array.from(entry)),
  );

type Kit = {
  id: number;
  sef_id: string;
  title: string;
  spot: string;
  features: string[];
  price: number;
  discounted_from: number | null;
  version: string;
  released_on: string | null;
  includes?: { id: number; sef_id: string; title: string; price: number }[];
};
type KitProduct = Kit & {
  documentation: boolean;
  /** The licence tiers (Solo first), for a kit sold in more than one. */
  licenses?: { id: number; name: string; seats: number; price: number; paddle_id: string | null }[];
  details: {
    demo: { url: string };
    headerCards: { title: string }[];
    video?: { id: string; text: string };
    heading: { title: string };
    screenshotsTitle: string;
    screenshots: { url: string; thumbnail_url: string; alt: string; title: string }[];
    included: string[];
    why: { text: string }[];
    faq: { question: string; answer: string }[];
  };
};

/** The catalog as the API serves it, so specs follow whatever the demo content holds. */
export async function loadCatalog(request: import('@playwright/test').APIRequestContext, base = '') {
  const kits = (await (await request.post(`${base}api/products`)).json()) as Kit[];
  const products = await Promise.all(
    kits.map(async (kit) => (await (await request.post(`${base}api/product/${kit.sef_id}`)).json()) as KitProduct),
  );
  const find = (predicate: (p: KitProduct) => boolean) => {
    const found = products.find(predicate);
    if (!found) throw new Error('the demo catalog lacks a kit this spec needs');
    return found;
  };
  return { kits, products, find };
}

/** The newest mail the e2e SMTP server received for an address, after `since` mails; polls until it comes. */
export async function readEmail(to: string, options: { subject?: RegExp; timeout?: number } = {}) {
  const { mailDir } = state();
  const deadline = Date.now() + (options.timeout ?? 15_000);
  for (;;) {
    const files = readdirSync(mailDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = JSON.parse(readFileSync(path.join(mailDir, file), 'utf8')) as ReceivedMail;
      if (!mail.to.includes(to.toLowerCase()) && !mail.to.includes(to)) continue;
      if (options.subject && !options.subject.test(mail.subject)) continue;
      const links = [...mail.text.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]);
      return {
        headers: mail.headers,
        subject: mail.subject,
        text: mail.text,
        links,
        count: files.filter((f) => JSON.parse(readFileSync(path.join(mailDir, f), 'utf8')).to.includes(to)).length,
      };
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} arrived`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Fills and sends the sign-in form on the sign-in screen the browser is on or going to. It waits for
 * the screen itself: after a redirect to /login the screen before it (with the footer's newsletter
 * "Email" field) can still show until the sign-in screen's code has loaded.
 */
export async function submitSignIn(page: Page, account: { email: string; password: string }) {
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Signs in through the sign-in form, as a person would, and waits until the form has let go. */
export async function signInThroughForm(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await submitSignIn(page, account);
  await expect(page).not.toHaveURL(/\/login/);
}

/** The claims the stand-in Google issuer puts in the next tokens it signs. */
export function setGoogleClaims(claims: Record<string, unknown>) {
  writeFileSync(state().claimsFile, JSON.stringify(claims));
}

/** A verified user with a password, straight into the database (as registration and verification leave it). */
export async function createAccount(db: pg.Pool, overrides: { name?: string; password?: string } = {}) {
  const { createUser } = await import('../factories/users.ts');
  return createUser(db, overrides);
}

/** Makes kits owned by a user, as a manual grant would. */
export async function grantKits(db: pg.Pool, userId: number, kitIds: number[]) {
  const factories = await import('../factories/users.ts');
  return factories.grantKits(db, userId, kitIds);
}

/**
 * The rows a grid's items make on screen, by their boxes: each row's item count and right edge.
 * A grid of several columns leaves no orphan when every row has two items or more and the last
 * ends where the first does (no hole at its end).
 */
export async function gridRows(items: import('@playwright/test').Locator) {
  const boxes = await items.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top + window.scrollY), right: Math.round(r.right) };
    }),
  );
  const rows: { top: number; count: number; right: number }[] = [];
  for (const box of boxes) {
    const row = rows.find((r) => Math.abs(r.top - box.top) < 4);
    if (row) {
      row.count += 1;
      row.right = Math.max(row.right, box.right);
    } else rows.push({ top: box.top, count: 1, right: box.right });
  }
  return rows;
}

export const GRID_WIDTHS = [390, 600, 800, 1000, 1250, 1440];

/** Fails with the widths and rows when a grid leaves a lone item or a hole in its last row. */
export function expectNoOrphans(rows: { count: number; right: number }[], what: string) {
  // One row, or one item per row (a phone's single column), has no orphan to leave.
  if (rows.length < 2 || rows[0]!.count === 1) return;
  expect(
    rows.map((r) => r.count).filter((n) => n < 2),
    `${what}: rows ${JSON.stringify(rows)}`,
  ).toEqual([]);
  const last = rows.at(-1)!;
  expect(Math.abs(last.right - rows[0]!.right), `${what}: last row ends short`).toBeLessThan(4);
}

/** '2025-10-14' -> '14 October 2025', as the store writes a day (the shared formatter). */
export { longDate as longDay } from '../../src/common/dates.ts';
