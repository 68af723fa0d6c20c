import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import type pg from 'pg';
import { OWNER_SHOP_URL, ROOT_URL } from '../../playwright.config.ts';
import {
  createAccount,
  expect,
  expectNoSidewaysScroll,
  loadCatalog,
  payAtSandboxCheckout,
  readEmail,
  signInThroughForm,
  submitSignIn,
  test,
} from './fixtures.ts';

/**
 * The owner console at 390 and 1440 px. These specs hide kits, refund and grant, so they
 * run on a shop of their own (tests/setup/e2e-stack.ts), never on the one the other specs read.
 */
test.use({ baseURL: `${OWNER_SHOP_URL}/`, database: 'owner' });

type Account = { id: number; name: string; email: string; password: string };
type Kit = { id: number; sef_id: string; title: string; price: number };

/** A verified account that is an owner (as `npm run owner -- add EMAIL` makes one). */
async function ownerAccount(db: pg.Pool): Promise<Account> {
  const owner = await createAccount(db, { name: 'Olive Owner' });
  await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
  return owner;
}

/** The header's user menu (inside the slide-in menu below 992 px) holds Admin for an owner. */
async function openUserMenu(page: Page, name: string) {
  const header = page.locator('header');
  const toggle = header.getByRole('button', { name: 'Menu', exact: true });
  if (await toggle.isVisible()) await toggle.click();
  await header.getByRole('button', { name, exact: true }).click();
  return header;
}

/** A buyer who paid for these kits at the sandbox checkout, in a browser of their own. */
async function paidBuyer(browser: Browser, db: pg.Pool, kits: Kit[], viewport: { width: number; height: number }) {
  const buyer = await createAccount(db, { name: `Bea Buyer ${randomBytes(3).toString('hex')}` });
  const context = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport });
  const page = await context.newPage();
  await signInThroughForm(page, buyer);
  await payAtSandboxCheckout(
    page,
    kits.map((k) => k.id),
  );
  return { buyer, page, context };
}

const purchasedTitles = async (page: Page) => {
  await page.goto('/user-panel');
  const list = page.getByRole('tabpanel');
  await expect(list.getByRole('listitem').first().or(list.getByTestId('purchases-empty'))).toBeVisible();
  return list.getByRole('listitem').allInnerTexts();
};

test.describe('the owner console', () => {
  test('an owner finds an order by e-mail and refunds one line: the buyer loses that kit at once and keeps the other', async ({
    page,
    db,
    browser,
    request,
    snap,
  }) => {
    test.setTimeout(90_000);
    const { kits } = await loadCatalog(request);
    const [keep, lose] = [kits[0]!, kits[1]!];
    const { buyer, page: buyerPage, context } = await paidBuyer(browser, db, [keep, lose], page.viewportSize()!);
    const owner = await ownerAccount(db);

    await signInThroughForm(page, owner);
    const header = await openUserMenu(page, owner.name);
    await header.getByRole('link', { name: 'Admin', exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const figures = page.getByRole('region', { name: 'Figures for the range' });
    await expect(figures.getByText('Gross sales', { exact: true })).toBeVisible();
    await expect(figures.getByText('Paid orders', { exact: true })).toBeVisible();
    await expect(figures.getByText('Conversion', { exact: true })).toBeVisible();
    await expect(page.locator('canvas')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Top kits' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Latest orders' })).toBeVisible();
    await page.getByText('Sales by day as a table').click();
    await expect(page.locator('#sales-by-day-table')).toBeVisible();
    await page.getByRole('button', { name: '12 months' }).click();
    await expect(page).toHaveURL(/range=12m/);
    await expect(page.getByRole('button', { name: '12 months' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expectNoSidewaysScroll(page);
    await snap('admin-dashboard');

    const nav = page.getByRole('navigation', { name: 'Admin' });
    for (const label of ['Dashboard', 'Orders', 'Customers', 'Kits', 'Messages', 'Subscribers', 'Activity']) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await nav.getByRole('link', { name: 'Orders' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
    await page.getByLabel('Search').fill(buyer.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const rows = page.getByRole('row').filter({ hasText: buyer.email });
    await expect(rows).toHaveCount(1);
    await expectNoSidewaysScroll(page);
    await snap('admin-orders');
    await rows.getByRole('link').click();

    await expect(page.getByRole('heading', { level: 1, name: /^Order ord_/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Payment events' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Mails sent' })).toBeVisible();
    await snap('admin-order');
    await page.getByRole('button', { name: `Refund ${lose.title}` }).click();
    const dialog = page.getByRole('dialog', { name: /Refund order/ });
    await expect(dialog.getByLabel(`${lose.title}`, { exact: false })).toBeChecked();
    await expect(dialog.getByLabel('Reason (required)')).toHaveAttribute('required', '');
    await dialog.getByLabel('Reason').fill('Bought the wrong kit');
    await snap('admin-refund-dialog');
    await dialog.getByRole('button', { name: `Refund $${lose.price.toFixed(2)}` }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('alert').filter({ hasText: 'Refund done' })).toBeVisible();
    const lines = page.getByRole('region', { name: 'Lines' });
    await expect(lines.getByRole('row').filter({ hasText: lose.title })).toContainText('Refunded');
    await expect(lines.getByRole('row').filter({ hasText: keep.title })).toContainText('Owned');
    await expect(page.getByText('Partially refunded').first()).toBeVisible();
    // The buyer was mailed the refund, and the order's mails list it.
    await expect(page.getByText(`Refund of USD ${lose.price.toFixed(2)} for your Kitshop order`)).toBeVisible();

    // The buyer at once: the refunded kit is gone from purchases, its download and its guide.
    const titles = await purchasedTitles(buyerPage);
    expect(titles.join('\n')).toContain(keep.title);
    expect(titles.join('\n')).not.toContain(lose.title);
    expect((await buyerPage.request.get(`download/${lose.id}`)).status()).toBe(403);
    expect((await buyerPage.request.get(`download/${keep.id}`)).status()).toBe(200);
    await buyerPage.goto(`/user-panel/item/${lose.sef_id}`);
    await expect(buyerPage).toHaveURL(`${OWNER_SHOP_URL}/`);
    await buyerPage.goto(`/user-panel/item/${keep.sef_id}`);
    await expect(buyerPage.getByRole('heading', { level: 1, name: keep.title })).toBeVisible();
    await context.close();

    await nav.getByRole('link', { name: 'Activity' }).click();
    const refundRow = page.getByRole('row').filter({ hasText: owner.email }).filter({ hasText: 'refund' });
    await expect(refundRow.first()).toContainText(/order ord_/);
    await expect(refundRow.first()).toContainText(lose.title);
    await snap('admin-activity');
  });

  test('refunding a purchase a bundle upgrade counted warns that the upgrade ends, and ends it', async ({
    page,
    db,
    browser,
    request,
    snap,
  }) => {
    test.setTimeout(90_000);
    const { kits } = await loadCatalog(request);
    const bundle = kits.find((k) => k.sef_id === 'full-stack-bundle')!;
    const kit = kits.find((k) => k.sef_id === 'react-vite-admin')!;
    const { buyer, page: buyerPage, context } = await paidBuyer(browser, db, [kit], page.viewportSize()!);
    await payAtSandboxCheckout(buyerPage, [bundle.id]);
    const { rows } = await db.query(
      `SELECT o.public_id, i.kit_id FROM orders o JOIN order_items i ON i.order_id = o.id
         JOIN users u ON u.id = o.user_id WHERE u.email = $1 AND o.status = 'paid'`,
      [buyer.email],
    );
    const kitOrder = rows.find((r) => r.kit_id === kit.id)!.public_id as string;
    const upgradeOrder = rows.find((r) => r.kit_id === bundle.id)!.public_id as string;
    const owner = await ownerAccount(db);

    await signInThroughForm(page, owner);
    await page.goto(`/admin/orders/${kitOrder}`);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /Refund order/ });
    const warning = dialog.getByRole('status');
    await expect(warning).toContainText(`This also ends ${bundle.title}`);
    await expect(warning.getByRole('link', { name: upgradeOrder })).toBeVisible();
    await expect(warning).toContainText('refund that order too');
    await dialog.getByLabel('Reason').fill('Bought by mistake');
    await snap('admin-refund-dialog-upgrade');
    await dialog.getByRole('button', { name: `Refund $${kit.price.toFixed(2)}` }).click();
    await expect(dialog).toBeHidden();

    await page.goto(`/admin/orders/${upgradeOrder}`);
    const lines = page.getByRole('region', { name: 'Lines' });
    await expect(lines.getByRole('row').filter({ hasText: bundle.title })).toContainText('Upgrade ended');
    await snap('admin-order-upgrade-ended');
    expect((await purchasedTitles(buyerPage)).join('\n')).not.toContain(bundle.title);
    await context.close();
  });

  test('Grant Kit and Revoke change what the customer can download at once', async ({
    page,
    db,
    browser,
    request,
    snap,
  }) => {
    // Two browsers signed in (owner and customer), a grant and a revoke, each checked from both sides.
    test.slow();
    const { kits } = await loadCatalog(request);
    const kit = kits[2] as Kit;
    const customer = await createAccount(db, { name: `Carl Customer ${randomBytes(3).toString('hex')}` });
    const context = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
    const customerPage = await context.newPage();
    await signInThroughForm(customerPage, customer);
    expect((await customerPage.request.get(`download/${kit.id}`)).status()).toBe(403);

    await signInThroughForm(page, await ownerAccount(db));
    await page.goto('/admin/customers');
    await page.getByLabel('Search').fill(customer.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: customer.name }).click();
    await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
    await expect(page.getByText('This customer owns no kit.')).toBeVisible();
    await snap('admin-customer');

    await page.getByRole('button', { name: 'Grant Kit' }).click();
    const grant = page.getByRole('dialog', { name: 'Grant a kit' });
    await grant.getByLabel('Kit').selectOption({ label: kit.title });
    await grant.getByLabel('Note').fill('Conference giveaway');
    await grant.getByRole('button', { name: 'Grant Kit' }).click();
    await expect(grant).toBeHidden();
    await expect(page.getByRole('alert').filter({ hasText: 'Kit granted' })).toBeVisible();
    const owned = page.getByRole('row').filter({ hasText: kit.title });
    await expect(owned).toContainText('Granted');
    expect((await customerPage.request.get(`download/${kit.id}`)).status()).toBe(200);
    expect((await purchasedTitles(customerPage)).join('\n')).toContain(kit.title);

    await owned.getByRole('button', { name: `Revoke ${kit.title}` }).click();
    const revoke = page.getByRole('dialog', { name: `Revoke ${kit.title}` });
    await revoke.getByLabel('Note').fill('Giveaway ended');
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await expect(revoke).toBeHidden();
    await expect(page.getByText('This customer owns no kit.')).toBeVisible();
    expect((await customerPage.request.get(`download/${kit.id}`)).status()).toBe(403);
    await context.close();

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Activity' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'revoke kit' }).first()).toContainText('Giveaway ended');
    await expect(page.getByRole('row').filter({ hasText: 'grant kit' }).first()).toContainText('Conference giveaway');
  });

  test('Sign Out Everywhere ends every session of a customer: their next call is 401', async ({
    page,
    db,
    browser,
  }) => {
    // Two browsers signed in (owner and customer).
    test.slow();
    const customer = await createAccount(db, { name: `Sam Stolen ${randomBytes(3).toString('hex')}` });
    const context = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
    const customerPage = await context.newPage();
    await signInThroughForm(customerPage, customer);
    expect((await customerPage.request.get('api/account/sessions')).status()).toBe(200);

    await signInThroughForm(page, await ownerAccount(db));
    await page.goto('/admin/customers');
    await page.getByLabel('Search').fill(customer.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: customer.name }).click();
    await page.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere' });
    await dialog.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('alert').filter({ hasText: `1 session of ${customer.email} ended.` })).toBeVisible();
    await expect.poll(async () => (await customerPage.request.get('api/account/sessions')).status()).toBe(401);
    await context.close();

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Activity' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'sign out customer' }).first()).toContainText(customer.email);
  });

  test('hiding a kit takes it off the store without touching its owners; Show brings it back @phone', async ({
    page,
    db,
    request,
    snap,
    isMobile,
  }) => {
    const { kits } = await loadCatalog(request);
    // A demo kit that no other spec of this shop buys, prices or edits meanwhile (they use the
    // first kits, the bundle, the Team kits and the kits they make themselves), one per project:
    // the desktop and the phone run of this test may run at the same time.
    const sefId = isMobile ? 'django-htmx-starter' : 'expo-mobile-starter';
    const kit = kits.find((k) => k.sef_id === sefId) as Kit;
    await signInThroughForm(page, await ownerAccount(db));
    await page.goto('/admin/kits');
    const row = page.getByRole('row').filter({ hasText: kit.sef_id });
    await expect(row).toContainText('Shown');
    await expectNoSidewaysScroll(page);
    await snap('admin-kits');
    try {
      await row.getByRole('button', { name: `Hide ${kit.title}` }).click();
      const dialog = page.getByRole('dialog', { name: `Hide ${kit.title}` });
      await dialog.getByRole('button', { name: 'Hide kit' }).click();
      await expect(dialog).toBeHidden();
      await expect(row).toContainText('Hidden');
      await snap('admin-kits-hidden');
      // A hidden kit's row (muted, with `Show`) is read as easily as the others.
      const contrast = await new AxeBuilder({ page }).include('main table').withRules(['color-contrast']).analyze();
      expect(
        contrast.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`)),
      ).toEqual([]);
      expect((await request.get(`product/${kit.sef_id}`)).status()).toBe(404);
      const listed = (await (await request.post('api/products')).json()) as Kit[];
      expect(listed.map((k) => k.sef_id)).not.toContain(kit.sef_id);
    } finally {
      await row.getByRole('button', { name: `Show ${kit.title}` }).click();
      await page
        .getByRole('dialog', { name: `Show ${kit.title}` })
        .getByRole('button', { name: 'Show kit' })
        .click();
    }
    await expect(row).toContainText('Shown');
    expect((await request.get(`product/${kit.sef_id}`)).status()).toBe(200);
  });

  test('Reply sends the sender an e-mail and marks the message answered', async ({ page, db, snap }) => {
    const sender = `sam-${randomBytes(4).toString('hex')}@example.com`;
    await db.query(
      "INSERT INTO contact_messages (topic, name, email, message) VALUES ('Licensing', 'Sam Sender', $1, 'Can I use the kit for two clients?')",
      [sender],
    );
    await signInThroughForm(page, await ownerAccount(db));
    await page.goto('/admin/messages');
    await expect(page.getByRole('button', { name: 'New' })).toHaveAttribute('aria-pressed', 'true');
    // The server searches (the list shows a page at a time): the sender's address finds their message.
    await page.getByLabel('Search').fill(sender);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/query=sam-/);
    await expect(page.getByText('1 message matches')).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(1);
    const card = page.getByRole('article').filter({ hasText: sender });
    await expect(card).toContainText('Can I use the kit for two clients?');
    await snap('admin-messages');
    await card.getByRole('button', { name: 'Reply to Sam Sender' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply to Sam Sender' });
    await dialog.getByLabel('Your reply').fill('Yes: one licence per client project.');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('alert').filter({ hasText: 'Reply sent' })).toBeVisible();
    await expect(card).toBeHidden(); // no longer new

    const mail = await readEmail(sender);
    expect(mail.text).toContain('one licence per client project');
    expect(mail.subject).toBe('Re: Licensing');
    expect(mail.headers).toMatch(/^Reply-To:.*support@kitshop\.dev/im);
    await page.getByRole('button', { name: 'Answered' }).click();
    await expect(page.getByRole('article').filter({ hasText: sender })).toContainText('Answered');
  });

  test('Subscribers shows the count and list, and Export CSV downloads them', async ({ page, db, snap }, testInfo) => {
    const email = `sub-${randomBytes(4).toString('hex')}@example.com`;
    await db.query('INSERT INTO subscribers (email, token_hash) VALUES ($1, $2)', [
      email,
      randomBytes(32).toString('hex'),
    ]);
    await signInThroughForm(page, await ownerAccount(db));
    await page.goto('/admin/subscribers');
    await expect(page.getByText(/\d+ subscribers?/)).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible();
    await snap('admin-subscribers');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const file = testInfo.outputPath('subscribers.csv');
    await download.saveAs(file);
    const csv = readFileSync(file, 'utf8');
    expect(csv.split(/\r?\n/)[0]).toBe('email,subscribed_at');
    expect(csv).toContain(email);
  });
});

/** Each table's sideways overflow inside its box (0 when nothing is cut off or scrolls). */
const tableOverflows = (page: Page) =>
  page.locator('.admin-card .table-responsive').evaluateAll((boxes) => boxes.map((b) => b.scrollWidth - b.clientWidth));

test('console tables stack into "label: value" rows on a phone and are never cut off @phone', async ({
  page,
  db,
  snap,
}) => {
  // Six console screens in one journey.
  test.setTimeout(60_000);
  const mobile = page.viewportSize()!.width < 768;
  const stamp = randomBytes(4).toString('hex');
  const email = `a-rather-long-subscriber-address-${stamp}@example-company.com`;
  await db.query('INSERT INTO subscribers (email, token_hash) VALUES ($1, $2)', [
    email,
    randomBytes(32).toString('hex'),
  ]);
  const customer = await createAccount(db, { name: `Cleo Customer ${stamp}` });
  const kit = (await db.query('SELECT id, title, price_cents FROM kits ORDER BY position LIMIT 1')).rows[0];
  const orderId = `ord_stack${stamp}`;
  const order = await db.query(
    'INSERT INTO orders (public_id, user_id, total_cents, items_key) VALUES ($1, $2, $3, $4) RETURNING id',
    [orderId, customer.id, kit.price_cents, String(kit.id)],
  );
  await db.query(
    `INSERT INTO order_items (order_id, kit_id, title, price_cents, list_price_cents, paddle_price_id)
     VALUES ($1, $2, $3, $4, $4, 'pri_stack')`,
    [order.rows[0].id, kit.id, kit.title, kit.price_cents],
  );
  try {
    await signInThroughForm(page, await ownerAccount(db));
    // The headline figures: each on one line inside its card, however wide the card.
    await page.goto('/admin?range=12m');
    const figures = page.getByRole('region', { name: 'Figures for the range' }).locator('.admin-figure-value');
    // A year's figures: the console's slowest read.
    await expect(figures).toHaveCount(7, { timeout: 20_000 });
    for (const fit of await figures.evaluateAll((els) =>
      els.map((el) => ({
        text: el.textContent,
        fits: el.scrollWidth <= el.clientWidth,
        lines: Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
      })),
    ))
      expect(fit, fit.text ?? '').toMatchObject({ fits: true, lines: 1 });

    await page.goto(`/admin/subscribers?query=${stamp}`);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row).toBeVisible();
    await expect(page.getByText('1 subscriber matches')).toBeVisible();
    const cell = row.getByRole('cell').first();
    // On a phone the headings row is hidden and each cell shows its column's name before its value.
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe(mobile ? '"E-mail"' : 'none');
    // The headings stay for screen readers, in a box of a pixel on a phone.
    const headings = await page.locator('.admin-table thead').boundingBox();
    expect(headings!.height <= 1).toBe(mobile);
    expect(await tableOverflows(page)).toEqual([0]);
    await expectNoSidewaysScroll(page);

    await page.goto(`/admin/orders?query=${orderId}`);
    const orderRow = page.getByRole('row').filter({ hasText: orderId });
    await expect(orderRow).toBeVisible();
    const box = await orderRow.boundingBox();
    // A row is one line of columns on a wide screen, a block of lines on a phone.
    expect(box!.height).toBeGreaterThan(mobile ? 150 : 0);
    expect(await tableOverflows(page)).toEqual([0]);
    await expectNoSidewaysScroll(page);

    await orderRow.getByRole('link', { name: orderId }).click();
    await expect(page.getByRole('heading', { name: 'Lines' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: kit.title })).toBeVisible();
    expect((await tableOverflows(page)).every((overflow) => overflow === 0)).toBe(true);
    await expectNoSidewaysScroll(page);

    // Messages: a search form, the status filter and cards, none wider than the screen.
    await db.query(
      "INSERT INTO contact_messages (topic, name, email, message) VALUES ('Other', 'Cleo Customer', $1, 'Does the licence cover a second client project?')",
      [email],
    );
    await page.goto('/admin/messages?status=all');
    await expect(page.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('article').filter({ hasText: email })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await snap('admin-messages-list');
  } finally {
    await db.query('DELETE FROM subscribers WHERE email = $1', [email]);
    await db.query('DELETE FROM contact_messages WHERE email = $1', [email]);
    await db.query('DELETE FROM orders WHERE public_id = $1', [orderId]);
  }
});

test.describe('the console for anyone else', () => {
  // The shell of /admin answers 404 to anyone but an owner, which the browser logs.
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test('signed out, /admin goes to sign in and comes back after it', async ({ page, db }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => window.localStorage.getItem('returnPath'))).toBe('admin');
    await submitSignIn(page, await ownerAccount(db));
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('a signed-in customer who is not an owner sees the ordinary not-found page at /admin (404), and no Admin item', async ({
    page,
    db,
    snap,
  }) => {
    const customer = await createAccount(db, { name: 'Nora Customer' });
    await signInThroughForm(page, customer);
    const response = await page.goto('/admin/orders');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
    const header = await openUserMenu(page, customer.name);
    await expect(header.getByRole('link', { name: 'User Panel' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);
    await snap('admin-not-owner');
    // The buyer's own shop has no console either way.
    expect((await page.request.get(`${ROOT_URL}/admin`)).status()).toBe(404);
  });
});
