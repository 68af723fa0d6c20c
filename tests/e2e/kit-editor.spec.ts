import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { OWNER_SHOP_URL } from '../../playwright.config.ts';
import { expect, expectNoSidewaysScroll, signInThroughForm, test } from './fixtures.ts';
import { addRow, expectImageLoaded, ownerAccount } from './owner-kits.ts';

/**
 * The owner's kit editor: New Kit, then its page completed, a screenshot uploaded, the price and the
 * FAQ changed, each visible to a visitor as soon as it is saved. On the owner console's own shop;
 * the kit it makes is deleted afterwards (nobody bought it).
 */
test.use({ baseURL: `${OWNER_SHOP_URL}/`, database: 'owner' });

const SCREENSHOT = path.resolve('tests/fixtures/catalog/kits/alpha-kit/screenshots/dashboard.png');

test.describe('the kit editor', () => {
  test('an owner creates a kit, completes its page with a screenshot, then changes its price and FAQ: a visitor sees each save at once', async ({
    page,
    db,
    browser,
    snap,
  }) => {
    test.setTimeout(120_000);
    const suffix = randomBytes(3).toString('hex');
    const sefId = `e2e-kit-${suffix}`;
    const title = `Editor Test Kit ${suffix}`;
    const owner = await ownerAccount(db, 'Ed Editor');
    const visitor = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
    try {
      await signInThroughForm(page, owner);
      await page.goto('admin/kits');
      await expect(page.getByRole('link', { name: 'New Kit' })).toBeVisible();
      await snap('kit-editor-kits');
      await page.getByRole('link', { name: 'New Kit' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'New Kit' })).toBeVisible();

      // A bad address and no price: field messages, and nothing is created.
      await page.getByLabel('Address').fill('Not A Slug');
      await page.getByRole('button', { name: 'Create Kit' }).click();
      await expect(page.getByLabel('Address')).toHaveAccessibleDescription(/Lowercase letters/);
      await expect(page.getByLabel('Price (USD)')).toHaveAccessibleDescription(/Enter an amount/);
      await page.getByLabel('Address').fill(sefId);
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Spot').fill('A kit made in the browser.');
      await page.getByLabel('Price (USD)').fill('19');
      await page.getByLabel('Paddle price id').fill(`pri_01e2e${randomBytes(6).toString('hex')}`);
      await snap('kit-editor-new');
      await page.getByRole('button', { name: 'Create Kit' }).click();

      await expect(page).toHaveURL(new RegExp(`/admin/kits/${sefId}$`));
      await expect(page.getByRole('heading', { level: 1, name: `Edit ${title}` })).toBeVisible();
      // Saving the empty page names what is missing, and the store still does not show the kit.
      await page.getByLabel('Visible in the store').check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'Nothing was saved' });
      await expect(refused).toContainText('Features: Add at least 3 features.');
      const visitorPage = await visitor.newPage();
      expect((await visitorPage.goto(`product/${sefId}`))!.status()).toBe(404);

      for (const n of [1, 2, 3]) await addRow(page, 'Add feature', { [`Feature ${n}`]: `Feature number ${n}` });
      await page.getByLabel('Demo URL').fill('https://demo.example.com');
      await addRow(page, 'Add header card', {
        'Card 1 icon': 'rocket',
        'Card 1 title': 'Fast',
        'Card 1 text': 'Starts fast.',
      });
      await page.getByLabel('Heading title').fill('Everything you need');
      await page.getByLabel('Heading lead').fill('A lead paragraph.');
      await addRow(page, 'Add heading feature', { 'Heading feature 1 (HTML)': '<strong>Typed</strong> end to end' });
      await page.getByLabel('Heading text (HTML)').fill('<p>Some text.</p>');
      await addRow(page, 'Add included item', { 'Included 1': 'Source code' });
      await addRow(page, 'Add reason', { 'Reason 1 icon': 'check', 'Reason 1': 'It works.' });
      await addRow(page, 'Add question', { 'Question 1': 'Is it tested?', 'Answer 1': 'Yes.' });
      await page.getByLabel('Screenshots heading').fill('See it');
      await page.getByLabel('Upload screenshot').setInputFiles(SCREENSHOT);
      await expect(page.getByLabel('Alt text 1')).toBeVisible();
      await page.getByLabel('Alt text 1').fill('The dashboard of the editor test kit');
      await page
        .getByRole('textbox', { name: 'Setup guide (Markdown)' })
        .fill('# Setup\n\n## Quick Start\n\nRun `npm ci`.\n\n## How to Modify\n\nEdit `src/`.\n');
      await page.getByRole('button', { name: 'Preview Setup guide (Markdown)' }).click();
      await expect(
        page
          .getByRole('region', { name: 'Setup guide (Markdown) preview' })
          .getByRole('heading', { name: 'Quick Start' }),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(page.getByText('Kit saved').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await snap('kit-editor');

      await visitorPage.goto(`product/${sefId}`);
      await expect(visitorPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(visitorPage.getByText('Is it tested?')).toBeVisible();
      const shot = visitorPage.getByRole('button', { name: 'Enlarge The dashboard of the editor test kit' });
      await expectImageLoaded(shot.getByRole('img'));
      await expect(visitorPage.getByText('$19').first()).toBeVisible();

      // The price and the FAQ change: reorder, add, and the visitor's next visit shows them.
      await page.getByLabel('Price (USD)').fill('24.50');
      await addRow(page, 'Add question', { 'Question 2': 'Can I change it?', 'Answer 2': 'Every line.' });
      await page.getByRole('button', { name: 'Move question 2 up' }).click();
      await expect(page.getByLabel('Question 1', { exact: true })).toHaveValue('Can I change it?');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(page.getByText('Kit saved').last()).toBeVisible();
      await visitorPage.goto(`product/${sefId}`);
      await expect(visitorPage.getByText('$24.50').first()).toBeVisible();
      const questions = visitorPage.getByText(/^(Can I change it\?|Is it tested\?)$/);
      await expect(questions).toHaveText(['Can I change it?', 'Is it tested?']);

      await page.goto('admin/activity');
      // By its text: on a phone the table's rows stack, and each cell's label joins its accessible name.
      await expect(page.getByText(`${title}: price $19 -> $24.5, FAQ`, { exact: true })).toBeVisible();
    } finally {
      await visitor.close();
      await db.query('DELETE FROM kits WHERE sef_id = $1', [sefId]);
      // Every instance drops its cached catalog, as after any change to the kits.
      await db.query("SELECT pg_notify('catalog_changed', 'test')");
    }
  });
});
