import type { Page } from '@playwright/test';
import { SHOP_URL } from '../../playwright.config.ts';
import { CONTACT_TOPICS } from '../../src/common/constants.ts';
import { expect, loadCatalog, readEmail, test } from './fixtures.ts';

test.describe('contact', () => {
  for (const path of ['/contact', '/support']) {
    test(`${path}: the form sends, resets and thanks the sender`, async ({ page, snap }) => {
      await page.goto(path);
      const main = page.locator('main');
      const topic = main.getByLabel('Topic');
      await expect(main.getByRole('button', { name: 'Send Message' })).toBeVisible();
      const options = (await topic.locator('option').allTextContents()).filter((o) =>
        (CONTACT_TOPICS as readonly string[]).includes(o),
      );
      expect(options).toEqual(CONTACT_TOPICS);
      await expect(main.getByLabel('Email')).toHaveAttribute('type', 'email');
      for (const label of ['Topic', 'Name', 'Email', 'Message'])
        await expect(main.getByLabel(label)).toHaveAttribute('required', '');
      if (path === '/contact') await snap('contact');

      await topic.selectOption('Bug report');
      await main.getByLabel('Name').fill('Grace');
      await main.getByLabel('Email').fill('grace@example.com');
      await main.getByLabel('Message').fill(`The docs link on ${path} is broken.`);
      await main.getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Message sent' })).toContainText(
        "Your message was sent successfully. We'll get back to you shortly.",
      );
      await expect(main.getByText("Thank you for reaching out! We'll get back to you shortly.")).toBeVisible();
      await expect(main.getByLabel('Name')).toHaveValue('');
      await expect(main.getByLabel('Message')).toHaveValue('');
      const mail = await readEmail('support@kitshop.dev', { subject: /\[Contact\] Bug report: Grace/ });
      expect(mail.headers).toMatch(/Reply-To: Grace <grace@example\.com>/);
    });
  }

  test('the thank-you is announced (a live region there from the start) and scrolled into view @phone', async ({
    page,
    snap,
  }) => {
    await page.goto('/contact');
    const main = page.locator('main');
    // Present and empty before sending: a region added together with its text is often not read out.
    const live = main.locator('[aria-live="polite"]');
    await expect(live).toHaveCount(1);
    await expect(live).toBeEmpty();
    await main.getByLabel('Topic').selectOption('Other');
    await main.getByLabel('Name').fill('Lin');
    await main.getByLabel('Email').fill('lin@example.com');
    await main.getByLabel('Message').fill('Is there a student discount?');
    const send = main.getByRole('button', { name: 'Send Message' });
    await send.scrollIntoViewIfNeeded();
    await send.click();
    await expect(live).toContainText("Thank you for reaching out! We'll get back to you shortly.");
    const thanks = main.getByTestId('contact-success');
    await expect(thanks).toBeInViewport({ ratio: 1 });
    // Below the sticky header, not under it.
    const header = await page.locator('header').first().boundingBox();
    await expect.poll(async () => (await thanks.boundingBox())!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    await snap('contact-confirmation');
  });

  test.describe('when the message cannot be delivered', () => {
    test.use({ allowedConsoleErrors: [/status of 503/] });
    test('an error toast names the support e-mail and the form still resets', async ({ page }) => {
      await page.route('**/api/contact', (route) => route.fulfill({ status: 503, json: { message: 'down' } }));
      await page.goto('/contact');
      const main = page.locator('main');
      await main.getByLabel('Topic').selectOption('Other');
      await main.getByLabel('Name').fill('Ken');
      await main.getByLabel('Email').fill('ken@example.com');
      await main.getByLabel('Message').fill('Hello');
      await main.getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Error sending message' })).toContainText(
        'support@kitshop.dev',
      );
      await expect(main.getByLabel('Name')).toHaveValue('');
    });
  });
});

test.describe('newsletter', () => {
  test('subscribes from the footer and mails a welcome with an unsubscribe link that works @stack', async ({
    page,
  }) => {
    const email = `reader-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await page.goto('/');
    const footer = page.locator('footer');
    await footer.getByLabel('Email').fill(email);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Subscription Successfull' })).toContainText(
      'You have been registered to our email bulletin',
    );
    const mail = await readEmail(email, { subject: /Welcome to the Kitshop newsletter/ });
    expect(mail.headers).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    const link = mail.links.find((l) => l.includes('/newsletter/unsubscribe?token='))!;
    await page.goto(link);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  });

  test.describe('failure', () => {
    test.use({ allowedConsoleErrors: [/status of 500/] });
    test('shows the failure toast', async ({ page }) => {
      await page.route('**/api/subscribe', (route) => route.fulfill({ status: 500, json: { message: 'x' } }));
      await page.goto('/');
      await page.locator('footer').getByLabel('Email').fill('someone@example.com');
      await page.locator('footer').getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Subscription Failed' })).toContainText(
        'Error subscribing bulletin',
      );
    });
  });
});

test.describe('static and legal pages', () => {
  const PAGES: [string, string, (string | RegExp)[]][] = [
    ['/about', 'about', [/original purchaser/i, /redistribut/i]],
    ['/privacy-policy', 'privacy', ['Effective Date: 1 July 2025', /children under 13/i, 'support@kitshop.dev']],
    ['/terms-and-conditions', 'terms', ['Effective Date: 1 July 2025', /Turkish law/i, 'support@kitshop.dev']],
    [
      '/refund-policy',
      'refund',
      [
        'Effective Date: 1 July 2025',
        /14 days/,
        /7 days/,
        /5–10 business days/,
        /change of mind/i,
        /system requirements/i,
        /misunderstanding/i,
        /purchased twice/i,
      ],
    ],
    [
      '/cookie-policy',
      'cookie',
      [
        'Effective Date: 1 July 2025',
        /essential/i,
        /analytics/i,
        /functional/i,
        /marketing/i,
        /third part/i,
        /managing cookies/i,
        /updates/i,
        'support@kitshop.dev',
        // The names the shop really gives its cookies (plain ones over http; __Host- ones on https).
        'kitshop_session',
        'kitshop_csrf',
      ],
    ],
  ];
  for (const [path, name, points] of PAGES) {
    test(`${path} covers its points`, async ({ page, snap }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const text = await page.locator('main').innerText();
      for (const point of points) expect(text).toMatch(point);
      await snap(name);
    });
  }
});

test.describe('links inside a text', () => {
  for (const [where, base, href] of [
    ['at the root', '', '/privacy-policy'],
    ['under BASE_PATH=/shop', SHOP_URL, '/shop/privacy-policy'],
  ] as const) {
    test(`${where}: a link to another page moves within the app, without loading the document again`, async ({
      page,
    }) => {
      await page.goto(`${base}/cookie-policy`);
      // Clicked before the app has started, the link loads the page as a plain link does: this
      // test is about the app's own navigation, so it waits for the text itself to be hydrated
      // (its screen is a chunk of its own, hydrated after the layout).
      await expect(page.locator('.static-page[data-hydrated]')).toBeVisible();
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      const link = page.locator('.static-prose').getByRole('link', { name: 'Privacy Policy' });
      await expect(link).toHaveAttribute('href', href);
      await link.click();
      await expect(page).toHaveURL(/\/privacy-policy$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
      expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    });
  }
});

test.describe('blog', () => {
  test('the home page shows the latest post teaser; the blog lists posts and serves its feed', async ({
    page,
    request,
    snap,
  }) => {
    await page.goto('/');
    const teaser = page.locator('section').filter({ has: page.locator('.blog-teaser') });
    await expect(teaser).toBeVisible();
    const title = await teaser.locator('h3 a').textContent();
    await teaser.locator('h3 a').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title!);
    await page.getByRole('link', { name: '← All posts' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    expect(await page.locator('.post-list li').count()).toBeGreaterThanOrEqual(3);
    await snap('blog');
    const feed = await request.get('blog/feed.xml');
    expect(feed.headers()['content-type']).toContain('application/rss+xml');
    expect((await feed.text()).match(/<item>/g)!.length).toBeGreaterThanOrEqual(3);
  });

  /** The shop's header (the cart with its badge, About, Support, Sign in), its footer with the newsletter, and room below the header. */
  async function expectShopLayout(page: Page, mobile: boolean) {
    const header = page.locator('header');
    await expect(header.getByRole('link', { name: /^Cart/ })).toHaveAttribute('href', '/cart');
    await expect(header.getByTestId('cart-count')).toHaveText('1');
    if (mobile) await header.getByRole('button', { name: 'Menu', exact: true }).click();
    for (const [name, href] of [
      ['About', '/about'],
      ['Support', '/support'],
      ['Sign in', '/login'],
      ['Sign up', '/register'],
    ]) {
      await expect(header.getByRole('link', { name, exact: true })).toHaveAttribute('href', href!);
    }
    if (mobile) {
      await page.keyboard.press('Escape');
      await expect(page.locator('#site-menu')).toBeHidden();
    }
    const footer = page.locator('footer');
    await expect(footer.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeVisible();
    await expect(footer).toContainText('© 2025 Kitshop');
    const headerBox = (await page.locator('header.site-header').boundingBox())!;
    const headingBox = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    expect(headingBox.y - (headerBox.y + headerBox.height)).toBeGreaterThanOrEqual(24);
  }

  test("the blog and its posts sit in the shop's layout, and a post reads without JavaScript @phone", async ({
    page,
    browser,
    request,
    snap,
  }, testInfo) => {
    const mobile = testInfo.project.name === 'mobile';
    const [kit] = (await loadCatalog(request)).kits;
    await page.goto('/');
    await page.evaluate(
      (id) => localStorage.setItem('cart', JSON.stringify({ count: 1, items: { [id]: id } })),
      kit!.id,
    );

    const list = await page.goto('/blog');
    expect(list?.status()).toBe(200);
    await expect(page).toHaveTitle('Blog — Kitshop');
    await expectShopLayout(page, mobile);
    await snap('blog-index');

    const link = page.locator('.post-list h2 a').first();
    const title = (await link.textContent())!;
    await link.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page).toHaveTitle(`${title} — Kitshop blog`);
    await expectShopLayout(page, mobile);
    // The newsletter form of the footer works here as on every other page.
    await page.route('**/api/subscribe', (route) => route.fulfill({ status: 200, json: {} }));
    await page.locator('footer').getByLabel('Email').fill('reader@example.com');
    await page.locator('footer').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Subscription Successfull')).toBeVisible();
    await snap('blog-post');

    // Without JavaScript (a crawler, a reader's blocker) the post is all there, in the shop's colours.
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize()! });
    const bare = await context.newPage();
    await bare.goto(page.url());
    await expect(bare.getByRole('heading', { level: 1 })).toHaveText(title);
    expect((await bare.locator('article').innerText()).length).toBeGreaterThan(2000);
    await expect(bare.getByRole('link', { name: '← All posts' })).toBeVisible();
    await context.close();
  });
});
