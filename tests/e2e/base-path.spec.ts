import { SHOP_URL } from '../../playwright.config.ts';
import { expect, loadCatalog, readCart, test } from './fixtures.ts';

test.use({ baseURL: `${SHOP_URL}/`, allowedConsoleErrors: [/status of 404/] });

test('the whole store works under BASE_PATH=/shop @stack', async ({ page, request }) => {
  const { kits, find } = await loadCatalog(request);
  const requests: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.origin === new URL(SHOP_URL).origin) requests.push(url.pathname);
  });

  const response = await page.goto('./');
  expect(response?.status()).toBe(200);
  const data = JSON.parse((await page.locator('#initial-data').textContent())!);
  expect(data).toMatchObject({ path: '/', baseUrl: `http://localhost:${new URL(SHOP_URL).port}/shop` });
  await expect(page.locator('#kits').getByRole('article')).toHaveCount(kits.length);
  await expect(page.locator('header').getByRole('link', { name: /^Cart/ })).toHaveAttribute('href', '/shop/cart');

  await page.getByRole('button', { name: `Buy ${kits[0]!.title}` }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  expect(await readCart(page)).toEqual({ count: 1, items: { [kits[0]!.id]: kits[0]!.id } });

  const documented = find((p) => p.documentation);
  await page
    .locator('#kits')
    .getByRole('link', { name: `Details of ${documented.title}` })
    .click();
  await expect(page).toHaveURL(`${SHOP_URL}/product/${documented.sef_id}`);
  await expect(page.getByRole('heading', { level: 1, name: documented.title })).toBeVisible();
  await page.getByRole('button', { name: `Enlarge ${documented.details.screenshots[0]!.title}` }).click();
  await expect(page.getByRole('dialog').getByRole('img')).toHaveJSProperty('complete', true);
  expect(
    await page
      .getByRole('dialog')
      .getByRole('img')
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Documentation' }).click();
  await expect(page).toHaveURL(`${SHOP_URL}/docs/${documented.sef_id}`);

  expect(requests.filter((p) => !p.startsWith('/shop/'))).toEqual([]);
  const direct = await page.goto(`./product/${documented.sef_id}`);
  expect(direct?.status()).toBe(200);
  const missing = await page.goto('./nothing-here');
  expect(missing?.status()).toBe(404);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
});

test('without Google configured, the sign-in and sign-up screens offer no Google button', async ({ page }) => {
  await page.goto('./login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in with Google' })).toHaveCount(0);
  await page.goto('./register');
  await expect(page.getByRole('button', { name: 'Sign Up' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign up with Google' })).toHaveCount(0);
});
