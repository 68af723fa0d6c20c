import { expect, readEmail, test } from './fixtures.ts';

const TOPICS = [
  'Pre-sales (pricing, license, usage)',
  'Product support (installed kit)',
  'Bug report',
  'Feature request',
  'Billing or refund',
  'Documentation issue',
  'Partnership / affiliate',
  'Other',
];

test.describe('contact', () => {
  for (const path of ['/contact', '/support']) {
    test(`${path}: the form sends, resets and thanks the sender`, async ({ page, snap }) => {
      await page.goto(path);
      const main = page.locator('main');
      const topic = main.getByLabel('Topic');
      await expect(main.getByRole('button', { name: 'Send Message' })).toBeVisible();
      const options = (await topic.locator('option').allTextContents()).filter((o) => TOPICS.includes(o));
      expect(options).toEqual(TOPICS);
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
  test('subscribes from the footer and mails a welcome with an unsubscribe link that works', async ({ page }) => {
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
});
