import type { BrowserContext, Page } from '@playwright/test';
import { ANALYTICS_SHOP_URL } from '../../playwright.config.ts';
import { expect, keepScreenshot, readDataLayer, test } from './fixtures.ts';

const GOOGLE_SCRIPT = /^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=G-E2ETEST123$/;

/** Aborts every request that leaves the shop and records its address. */
async function recordOutsideRequests(context: BrowserContext) {
  const outside: string[] = [];
  await context.route(
    (url) => url.origin !== new URL(ANALYTICS_SHOP_URL).origin,
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );
  return outside;
}

const bar = (page: Page) => page.getByRole('region', { name: 'Analytics cookies' });
/** The page's events, without gtag's own commands (consent, js, config, set). */
const events = async (page: Page) => (await readDataLayer(page)).filter((entry) => entry[0] === 'event');

test.describe('analytics consent (GA_MEASUREMENT_ID set)', () => {
  test.use({ baseURL: `${ANALYTICS_SHOP_URL}/`, allowedConsoleErrors: [/net::ERR_FAILED/] });

  test('Google is asked for nothing before Accept Analytics, its script after, and the choice is remembered @phone', async ({
    page,
    context,
    snap,
  }, testInfo) => {
    const outside = await recordOutsideRequests(context);
    await page.goto('/about');
    await expect(bar(page)).toBeVisible();
    await expect(bar(page).getByRole('link', { name: 'Cookie Policy' })).toHaveAttribute('href', '/cookie-policy');
    // Consent Mode v2: everything denied, as the very first command.
    const first = (await readDataLayer(page))[0]!;
    expect(first).toEqual([
      'consent',
      'default',
      { analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' },
    ]);
    await expect.poll(async () => (await events(page)).some((e) => e[1] === 'page_view')).toBe(true);
    // The same page view as without analytics.
    const [view] = await events(page);
    expect(view).toEqual([
      'event',
      'page_view',
      { page_path: '/about', page_title: await page.title(), page_location: `${ANALYTICS_SHOP_URL}/about` },
    ]);
    await snap('consent-banner');
    // The bar as the visitor sees it first: along the bottom of the window.
    await keepScreenshot(page, { path: `test-screens/consent-banner-window-${testInfo.project.name}.png` });
    // A bar, not a wall: the page under it is still used (a link in the page works).
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).click();
    await expect(page).toHaveURL(/\/contact$/);
    expect(outside).toEqual([]);

    await bar(page).getByRole('button', { name: 'Accept Analytics' }).click();
    await expect(bar(page)).toBeHidden();
    await expect.poll(() => outside.some((url) => GOOGLE_SCRIPT.test(url))).toBe(true);
    expect(await readDataLayer(page)).toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);

    // Remembered: no bar on the next visit, and the script loads at once.
    outside.length = 0;
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(bar(page)).toHaveCount(0);
    await expect.poll(() => outside.some((url) => GOOGLE_SCRIPT.test(url))).toBe(true);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('analyticsConsent')!));
    expect(saved.choice).toBe('granted');
  });

  test('after Reject Analytics nothing goes to Google, now or on the next visit', async ({ page, context }) => {
    const outside = await recordOutsideRequests(context);
    await page.goto('/');
    await bar(page).getByRole('button', { name: 'Reject Analytics' }).click();
    await expect(bar(page)).toBeHidden();
    await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
    await expect.poll(async () => (await events(page)).filter((e) => e[1] === 'page_view').length).toBe(2);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(bar(page)).toHaveCount(0);
    // The page view still reaches window.dataLayer: only Google's script is kept out.
    await expect.poll(async () => (await events(page)).some((e) => e[1] === 'page_view')).toBe(true);
    expect(outside).toEqual([]);
  });

  test('Cookie Settings reopens the bar, and withdrawing deletes the _ga cookies', async ({ page, context }) => {
    await recordOutsideRequests(context);
    await page.goto('/');
    await bar(page).getByRole('button', { name: 'Accept Analytics' }).click();
    // What Google's script would have set (it is kept out of the test).
    const host = new URL(ANALYTICS_SHOP_URL).hostname;
    await context.addCookies([
      { name: '_ga', value: 'GA1.1.1.1', domain: host, path: '/' },
      { name: '_ga_E2ETEST123', value: 'GS1.1.1', domain: host, path: '/' },
      { name: 'keep_me', value: '1', domain: host, path: '/' },
    ]);
    await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie Settings' }).click();
    // Opened from the footer, the bar takes the focus.
    await expect(bar(page).getByRole('button', { name: 'Accept Analytics' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(bar(page).getByRole('button', { name: 'Reject Analytics' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(bar(page)).toBeHidden();
    const names = (await context.cookies()).map((cookie) => cookie.name);
    expect(names).not.toContain('_ga');
    expect(names).not.toContain('_ga_E2ETEST123');
    expect(names).toContain('keep_me');
    expect(await readDataLayer(page)).toContainEqual(['consent', 'update', { analytics_storage: 'denied' }]);
  });

  test('with the bar shown, the footer’s newsletter Email can be scrolled into view above the bar and used @phone', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(bar(page)).toBeVisible();
    const email = page.getByRole('contentinfo').getByLabel('Email');
    // What is at the field's centre, as an outside tool sees it: the field, not the bar.
    const atCentre = () =>
      email.evaluate((field) => {
        const box = field.getBoundingClientRect();
        return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === field;
      });
    // The least scroll that shows the field (a person scrolling down to it, the browser moving to a
    // focused field), and the end of the page.
    // Scrolled again until the page has settled (late images and fonts above the footer move it
    // while it lays out): a bar that covers the field for good still fails.
    for (const block of ['nearest', 'end'] as const) {
      await expect
        .poll(
          async () => {
            await email.evaluate((field, b) => field.scrollIntoView({ block: b, behavior: 'instant' }), block);
            return atCentre();
          },
          { message: `scrolled into view (${block})` },
        )
        .toBe(true);
    }
    await expect
      .poll(
        async () => {
          await page.evaluate(() =>
            window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }),
          );
          return atCentre();
        },
        { message: 'at the end of the page' },
      )
      .toBe(true);
    await email.fill('reader@example.com');
    await expect(email).toHaveValue('reader@example.com');
  });

  test('the keyboard reaches the bar first thing on the page', async ({ page }) => {
    await page.goto('/');
    await expect(bar(page)).toBeVisible();
    const focused: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(focused).toContain('Accept Analytics');
    expect(focused).toContain('Reject Analytics');
  });
});

test('without GA_MEASUREMENT_ID there is no bar and no Cookie Settings', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Cookie Policy' })).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cookie Settings' })).toHaveCount(0);
});
