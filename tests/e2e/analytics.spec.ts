import type { Page } from '@playwright/test';
import { SHOP_URL } from '../../playwright.config.ts';
import { expect, readDataLayer, test } from './fixtures.ts';

const TOKEN = 'abc-reset-token-4f9c2e';
const EMAIL = 'x@example.com';

/** Everything the page pushed to window.dataLayer, as text, once its page_view is there. */
async function dataLayerText(page: Page, path: string) {
  await expect
    .poll(async () => (await readDataLayer(page)).some((e) => e[1] === 'page_view' && JSON.stringify(e).includes(path)))
    .toBe(true);
  return JSON.stringify(await readDataLayer(page));
}

test.describe('analytics never learns a token or an e-mail', () => {
  for (const path of ['/reset-password', '/email/verify']) {
    test(`${path}?token=…&email=… sends a page_view without them`, async ({ page }) => {
      await page.goto(`${path}?token=${TOKEN}&email=${encodeURIComponent(EMAIL)}`);
      const text = await dataLayerText(page, path);
      for (const secret of [TOKEN, EMAIL, encodeURIComponent(EMAIL), 'token=', 'email=']) {
        expect(text).not.toContain(secret);
      }
      // The contract stays: page_path and page_title, and the address without its query.
      const view = (await readDataLayer(page)).find((e) => e[0] === 'event' && e[1] === 'page_view')!;
      expect(view[2]).toEqual({
        page_path: path,
        page_title: await page.title(),
        page_location: new URL(path, page.url()).href,
      });
    });
  }

  test("keeps a campaign's utm_ tags and drops any other query", async ({ page }) => {
    await page.goto('/about?utm_source=newsletter&utm_campaign=spring&ref=someone%40example.com');
    await dataLayerText(page, '/about');
    const view = (await readDataLayer(page)).find((e) => e[0] === 'event' && e[1] === 'page_view')!;
    expect((view[2] as { page_location: string }).page_location).toBe(
      new URL('/about?utm_source=newsletter&utm_campaign=spring', page.url()).href,
    );
  });

  test('another site reached from a reset link learns only the origin (Referrer-Policy)', async ({ page }) => {
    await page.goto(`/reset-password?token=${TOKEN}&email=${encodeURIComponent(EMAIL)}`);
    // The other e2e server: another origin, as any outside site is.
    const elsewhere = `${SHOP_URL.replace('127.0.0.1', 'localhost')}/healthz`;
    const request = page.waitForRequest(elsewhere);
    await page.evaluate((url) => {
      window.location.href = url;
    }, elsewhere);
    expect((await request).headers().referer).toBe(`${new URL(page.url()).origin}/`);
  });
});
