import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const BANNER = 'Test payments: no real charges';

/**
 * A production shop on the sandbox provider: its page shell says `testPayments: true` in
 * #client-config (page-shell.test.ts checks the server's side). The e2e stack runs NODE_ENV=test,
 * so this spec sets that flag in the pages it loads, as such a shop serves them.
 */
async function servePagesAsProductionSandbox(page: Page) {
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /(<script type="application\/json" id="client-config">)(.*?)(<\/script>)/,
      (_all, open: string, json: string, close: string) =>
        `${open}${JSON.stringify({ ...JSON.parse(json), testPayments: true })}${close}`,
    );
    await route.fulfill({ response, body });
  });
}

test.describe('a production shop on the sandbox', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] }); // the not-found page answers 404
  test('says "Test payments: no real charges" on every page, without widening it @phone', async ({ page, snap }) => {
    test.slow(); // seven pages, each fetched through the route handler, and two full-page screenshots
    await servePagesAsProductionSandbox(page);
    for (const path of ['/', '/cart', '/checkout', '/login', '/register', '/cookie-policy', '/no-such-page']) {
      await page.goto(path);
      await expect(page.getByText(BANNER, { exact: true }), path).toBeVisible();
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(`${path}: ${scrollWidth}`).toBe(`${path}: ${clientWidth}`);
    }
    await page.goto('/');
    // Above the header, which still sticks to the top once the banner has scrolled away.
    const banner = await page.getByText(BANNER).boundingBox();
    const header = await page.locator('header').first().boundingBox();
    expect(banner!.y + banner!.height).toBeLessThanOrEqual(header!.y + 1);
    await snap('test-payments-banner');
    await page.goto('/login');
    await snap('test-payments-banner-login');
  });
});

test('a shop outside production shows no test-payments banner', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('header').first()).toBeVisible();
  await expect(page.getByText(BANNER)).toHaveCount(0);
});
