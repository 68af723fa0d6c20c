import { expect, loadCatalog, test } from './fixtures.ts';

test('documentation: its own navigation through the pages, reached from the product page @phone', async ({
  page,
  request,
  snap,
}) => {
  const kit = (await loadCatalog(request)).find((p) => p.documentation);
  const docs = await (await request.get(`api/docs/${kit.sef_id}`)).json();
  await page.goto(`/product/${kit.sef_id}`);
  await page.getByRole('link', { name: 'Documentation' }).click();
  await expect(page).toHaveURL(new RegExp(`/docs/${kit.sef_id}$`));
  const nav = page.getByRole('navigation', { name: 'Documentation' });
  await expect(nav.getByRole('link')).toHaveText(docs.pages.map((p: { title: string }) => p.title));
  await expect(nav.getByRole('link', { name: docs.pages[0].title })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: docs.pages[0].title })).toBeVisible();
  await expect(page).toHaveTitle(`${kit.title} Documentation — Kitshop`);
  await snap('docs');

  await nav.getByRole('link', { name: docs.pages[1].title }).click();
  await expect(page).toHaveURL(new RegExp(`/docs/${kit.sef_id}/${docs.pages[1].slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: docs.pages[1].title })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.getByRole('link', { name: `← ${docs.pages[0].title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: docs.pages[0].title })).toBeVisible();
});

test.describe('missing documentation', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });
  test('a kit without docs answers 404', async ({ page, request }) => {
    const kit = (await loadCatalog(request)).find((p) => !p.documentation);
    const response = await page.goto(`/docs/${kit.sef_id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText('404', { exact: true })).toBeVisible();
  });
});

test("documentation's Markdown headings are as strong as the shop's own section titles", async ({ page, request }) => {
  const kit = (await loadCatalog(request)).find((p) => p.documentation);
  await page.goto('/');
  const pageOwn = await page
    .locator('.section-title')
    .first()
    .evaluate((el) => getComputedStyle(el).fontWeight);
  await page.goto(`/docs/${kit.sef_id}`);
  const fromMarkdown = page.locator('.docs-content h2').first();
  await expect(fromMarkdown).toBeVisible();
  expect(await fromMarkdown.evaluate((el) => getComputedStyle(el).fontWeight)).toBe(pageOwn);
});
