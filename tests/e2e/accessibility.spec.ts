import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type pg from 'pg';
import { ANALYTICS_SHOP_URL, OWNER_SHOP_URL, ROOT_URL } from '../../playwright.config.ts';
import { OWNER_SCREEN_PATTERNS, SCREEN_PATTERNS, screenOf } from '../../src/common/screens.ts';
import {
  createAccount,
  createSession,
  expect,
  expectNoSidewaysScroll,
  grantKits,
  loadCatalog,
  openDatabase,
  test,
} from './fixtures.ts';

/**
 * axe-core's WCAG 2.2 AA rules on every public, buyer and owner screen, at 1440 px (desktop) and
 * 390 px (@phone): any violation fails. The screens come from the tables in src/common/screens.ts
 * (the shop's and the owner console's), so a new screen is scanned without touching this file; the
 * blog, which the server renders outside that table, is added here. One page per test; the
 * signed-in buyer and owner are made once per worker and share their sessions.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type Shop = 'root' | 'owner';
type Visitor = 'visitor' | 'buyer' | 'owner';
type Scan = { path: string; shop: Shop; as: Visitor; label: string };

/** Screens that mean something only to a signed-in buyer (the rest are scanned as a visitor sees them). */
const BUYER_SCREENS = new Set<string>(['/checkout', '/user-panel', '/user-panel/item/:sefId']);

/** What each screen of the tables is scanned as. */
const SCANS: Scan[] = [
  ...SCREEN_PATTERNS.map(
    (pattern): Scan => ({
      path: pattern,
      shop: 'root',
      as: BUYER_SCREENS.has(pattern) ? 'buyer' : 'visitor',
      label: `${pattern} (${screenOf(pattern).access})`,
    }),
  ),
  { path: '/user-panel?tab=profile', shop: 'root', as: 'buyer', label: 'the user panel’s Profile tab' },
  { path: '/blog', shop: 'root', as: 'visitor', label: 'the blog' },
  { path: '/blog/:post', shop: 'root', as: 'visitor', label: 'a blog post' },
  ...OWNER_SCREEN_PATTERNS.map((pattern): Scan => ({ path: pattern, shop: 'owner', as: 'owner', label: pattern })),
];

type Samples = Record<string, string>;
type Worker = { samples: Samples; sessions: Record<'buyer' | 'owner', { name: string; value: string }> };

const pools: pg.Pool[] = [];
const cleanup: [pg.Pool, number[]][] = [];
let worker: Worker | undefined;

/** Ids for the paths' parameters, and a buyer (owning a kit) and an owner (with an order to open). */
async function prepare(request: import('@playwright/test').APIRequestContext): Promise<Worker> {
  if (worker) return worker;
  const { kits, products } = await loadCatalog(request, `${ROOT_URL}/`);
  const documented = products.find((p) => p.documentation) ?? products[0]!;
  const docs = (await (await request.get(`${ROOT_URL}/api/docs/${documented.sef_id}`)).json()) as {
    pages: { slug: string }[];
  };
  const blog = await (await request.get(`${ROOT_URL}/blog`)).text();
  const post = /<h2><a href="\/blog\/([^"/?#]+)">/.exec(blog)?.[1];
  if (!post) throw new Error('the blog lists no post to scan');

  const root = openDatabase('root');
  const ownerDb = openDatabase('owner');
  pools.push(root, ownerDb);
  const buyer = await createAccount(root, { name: 'Axe Buyer' });
  await grantKits(root, buyer.id, [documented.id]);

  const owner = await createAccount(ownerDb, { name: 'Axe Owner' });
  await ownerDb.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
  const customer = await createAccount(ownerDb, { name: 'Axe Customer' });
  const kit = kits[0]!;
  const orderId = `ord_axe${customer.id}`;
  const { rows } = await ownerDb.query(
    `INSERT INTO orders (public_id, user_id, total_cents, items_key) VALUES ($1, $2, $3, $4) RETURNING id`,
    [orderId, customer.id, Math.round(kit.price * 100), String(kit.id)],
  );
  await ownerDb.query(
    `INSERT INTO order_items (order_id, kit_id, title, price_cents, list_price_cents, paddle_price_id)
     VALUES ($1, $2, $3, $4, $4, 'pri_axe')`,
    [rows[0].id, kit.id, kit.title, Math.round(kit.price * 100)],
  );

  cleanup.push([root, [buyer.id]], [ownerDb, [owner.id, customer.id]]);
  worker = {
    samples: {
      '/product/:sefId': `/product/${kits[0]!.sef_id}`,
      '/docs/:sefId': `/docs/${documented.sef_id}`,
      '/docs/:sefId/:page': `/docs/${documented.sef_id}/${docs.pages.at(-1)!.slug}`,
      '/user-panel/item/:sefId': `/user-panel/item/${documented.sef_id}`,
      '/blog/:post': `/blog/${post}`,
      '/admin/orders/:id': `/admin/orders/${orderId}`,
      '/admin/customers/:id': `/admin/customers/${customer.id}`,
      '/admin/kits/:sefId': `/admin/kits/${kit.sef_id}`,
      '/seat-invitation/:token': '/seat-invitation/axe-sample-token',
    },
    sessions: { buyer: await createSession(root, buyer.id), owner: await createSession(ownerDb, owner.id) },
  };
  return worker;
}

test.afterAll(async () => {
  // The worker's accounts go with their orders and sessions (orders outlive their buyers otherwise).
  for (const [pool, ids] of cleanup) {
    await pool.query('DELETE FROM orders WHERE user_id = ANY($1)', [ids]);
    await pool.query('DELETE FROM owners WHERE email IN (SELECT lower(email) FROM users WHERE id = ANY($1))', [ids]);
    await pool.query('DELETE FROM users WHERE id = ANY($1)', [ids]);
  }
  await Promise.all(pools.map((pool) => pool.end()));
});

/** The address of a scan: its sample when the path has parameters (a path with one and no sample fails). */
function addressOf(scan: Scan, samples: Samples): string {
  const path = scan.path.includes(':') ? samples[scan.path] : scan.path;
  if (!path) throw new Error(`no sample address for ${scan.path}: add one to prepare()`);
  return `${scan.shop === 'owner' ? OWNER_SHOP_URL : ROOT_URL}${path}`;
}

/** The screen once it has settled: its data loaded, its spinners gone, its code hydrated. */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('fieldset.hydration-frame[disabled]')).toHaveCount(0);
  await expect(page.locator('.spinner-border:visible')).toHaveCount(0);
}

/** Fails with a list a person can act on: each rule, its impact, and where it failed. */
async function expectNoViolations(page: Page) {
  // Every result type: rules such as landmark-unique compare a page's nodes across all of them.
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}`).join('\n')}`,
  );
  expect(found, 'axe-core violations').toEqual([]);
}

test.describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  // A worker's first scan also makes its accounts and reads the catalog; axe takes seconds a page.
  test.describe.configure({ timeout: 60_000 });

  for (const scan of SCANS) {
    test(`${scan.label} has no violation and no sideways scroll @phone`, async ({ page, context, request }) => {
      const { samples, sessions } = await prepare(request);
      if (scan.as !== 'visitor') {
        await context.addCookies([{ ...sessions[scan.as], url: scan.shop === 'owner' ? OWNER_SHOP_URL : ROOT_URL }]);
      }
      // The exit screen signs out and leaves after a second: scanned as it stays when the call
      // fails (an answer it cannot read), with its heading and alert.
      if (scan.path === '/exit')
        await page.route('**/api/exit', (route) => route.fulfill({ contentType: 'application/json', body: '{' }));
      // An invitation's screen as its invitee sees it: the call answers as for a pending seat (the
      // rules of invitations are the seats spec's; here it is what the screen shows).
      if (scan.path === '/seat-invitation/:token')
        await page.route('**/api/seat-invitations/*', (route) =>
          route.fulfill({
            contentType: 'application/json',
            body: JSON.stringify({
              sef_id: 'nextjs-saas-starter',
              kit_title: 'Next.js SaaS Starter',
              licence: 'Team',
              manager_name: 'Axe Manager',
              email: 'axe-buyer@example.test',
              status: 'pending',
            }),
          }),
        );
      await page.goto(addressOf(scan, samples));
      await settle(page);
      if (scan.shop === 'owner') await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
      await expectNoViolations(page);
      await expectNoSidewaysScroll(page);
    });
  }

  test('the analytics consent bar over the home page has no violation @phone', async ({ page }) => {
    await page.goto(`${ANALYTICS_SHOP_URL}/`);
    await settle(page);
    await expect(page.getByRole('button', { name: /accept/i })).toBeVisible();
    await expectNoViolations(page);
  });
});
