import { expect, loadCatalog, test } from './fixtures.ts';

const isMobile = (name: string) => name === 'mobile';

test.describe('header', () => {
  test('signed out: About, Support, Sign in, Sign up and the cart with its badge @phone', async ({
    page,
  }, testInfo) => {
    await page.goto('/');
    const header = page.locator('header');
    if (isMobile(testInfo.project.name)) {
      await expect(header.getByRole('link', { name: 'About' })).toBeHidden();
      await header.getByRole('button', { name: 'Menu', exact: true }).click();
    }
    await expect(header.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    await expect(header.getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/support');
    await expect(header.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await expect(header.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    await expect(header.getByRole('link', { name: /^Cart/ })).toHaveAttribute('href', '/cart');
    await expect(header.getByTestId('cart-count')).toHaveText('0');
  });

  test("signed in: a menu with the user's name holding User Panel and Exit @phone", async ({
    page,
    signIn,
    snap,
  }, testInfo) => {
    await signIn('Grace Hopper');
    await page.goto('/');
    const header = page.locator('header');
    if (isMobile(testInfo.project.name)) await header.getByRole('button', { name: 'Menu', exact: true }).click();
    await expect(header.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
    await header.getByRole('button', { name: 'Grace Hopper' }).click();
    await expect(header.getByRole('link', { name: 'User Panel' })).toHaveAttribute('href', '/user-panel');
    await expect(header.getByRole('link', { name: 'Exit' })).toHaveAttribute('href', '/exit');
    await snap('header-signed-in');
  });

  test("signed in without a name: the menu is labelled 'User' @phone", async ({ page, signIn }, testInfo) => {
    await signIn('');
    await page.goto('/');
    if (isMobile(testInfo.project.name)) await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await expect(page.locator('header').getByRole('button', { name: 'User', exact: true })).toBeVisible();
  });

  test('below 992 px the menu slides in over 300 ms and closes by button, Escape and backdrop @phone', async ({
    page,
    snap,
  }, testInfo) => {
    test.skip(!isMobile(testInfo.project.name), 'the phone layout');
    await page.goto('/');
    const menu = page.locator('#site-menu');
    expect(await menu.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0.3s');
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    await toggle.click();
    await expect(page.getByRole('dialog', { name: 'Kitshop' })).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await snap('mobile-menu');
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await page.locator('.offcanvas-backdrop').click({ position: { x: 10, y: 400 } });
    await expect(menu).toBeHidden();
  });

  test('below 992 px Escape closes the menu even while it is still sliding in @phone', async ({ page }, testInfo) => {
    test.skip(!isMobile(testInfo.project.name), 'the phone layout');
    await page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
    await page.goto('/');
    const menu = page.locator('#site-menu');
    // Hydrated first: the page's buttons are disabled until then, and hydration starts in a timer,
    // which the paused clock would hold.
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeEnabled();
    // Time stands still from here: no animation frame runs until the test lets the clock go on.
    await page.clock.pauseAt(new Date('2026-01-01T00:00:10Z'));
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    // The browser has not painted a frame yet: the menu is still on its way in.
    await page.keyboard.press('Escape');
    // The frames it was waiting for come, and React renders what they set (its scheduler posts
    // messages, which the paused clock does not hold), before the slide-out ends.
    await page.clock.runFor(50);
    await page.evaluate(async () => {
      for (let i = 0; i < 3; i += 1) {
        await new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = resolve;
          channel.port2.postMessage(null);
        });
      }
    });
    await page.clock.runFor(1000);
    await expect(menu).toBeHidden();
  });

  test("the phone menu lists the kits and the blog and shows the account's items at once; the bar from 992 px adds Kits and Blog @phone", async ({
    page,
    request,
    signIn,
    snap,
  }, testInfo) => {
    const { kits } = await loadCatalog(request);
    const header = page.locator('header');
    await page.goto('/');
    if (isMobile(testInfo.project.name)) {
      await header.getByRole('button', { name: 'Menu', exact: true }).click();
      await expect(header.getByRole('link', { name: 'Kits', exact: true })).toHaveAttribute('href', '/#kits');
      for (const kit of kits) {
        await expect(header.getByRole('link', { name: kit.title, exact: true })).toHaveAttribute(
          'href',
          `/product/${kit.sef_id}`,
        );
      }
      await expect(header.getByRole('link', { name: 'Blog', exact: true })).toHaveAttribute('href', '/blog');
      await snap('mobile-menu-kits');
      await header.getByRole('link', { name: kits[0]!.title, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: kits[0]!.title })).toBeVisible();
      await expect(page.locator('#site-menu')).toBeHidden();

      await signIn('Grace Hopper');
      await page.goto('/');
      await header.getByRole('button', { name: 'Menu', exact: true }).click();
      // No second tap on the name: the account's items are there as the menu opens.
      await expect(header.getByRole('link', { name: 'User Panel' })).toBeVisible();
      await expect(header.getByRole('link', { name: 'Exit' })).toHaveAttribute('href', '/exit');
      await snap('mobile-menu-account');
      await header.getByRole('link', { name: 'User Panel' }).click();
      await expect(page).toHaveURL(/\/user-panel$/);
      await expect(page.locator('#site-menu')).toBeHidden();
    } else {
      // Kits and Blog beside the spec's items, in one row with them; each kit's link stays in the phone
      // menu, and the account's items in the name's dropdown.
      const about = header.getByRole('link', { name: 'About' });
      await expect(about).toBeVisible();
      for (const [name, href] of [
        ['Kits', '/#kits'],
        ['Blog', '/blog'],
      ]) {
        const link = header.getByRole('link', { name, exact: true });
        await expect(link).toBeVisible();
        await expect(link).toHaveAttribute('href', href!);
        expect(Math.abs((await link.boundingBox())!.y - (await about.boundingBox())!.y)).toBeLessThan(4);
      }
      for (const kit of kits) await expect(header.getByRole('link', { name: kit.title, exact: true })).toHaveCount(0);
      await signIn('Grace Hopper');
      await page.goto('/');
      await expect(header.getByRole('button', { name: 'Grace Hopper' })).toBeVisible();
      await expect(header.getByRole('link', { name: 'User Panel' })).toHaveCount(0);
      await header.getByRole('button', { name: 'Grace Hopper' }).click();
      await expect(header.getByRole('link', { name: 'User Panel' })).toBeVisible();
      const menu = (await header.locator('.dropdown-menu').boundingBox())!;
      const name = (await header.getByRole('button', { name: 'Grace Hopper' }).boundingBox())!;
      const bar = (await header.boundingBox())!;
      // A dropdown floating below the name, over the page, not items in the bar's flow.
      expect(menu.y).toBeGreaterThanOrEqual(name.y + name.height);
      expect(menu.y + menu.height).toBeGreaterThan(bar.y + bar.height);
      await page.keyboard.press('Escape');
      await expect(header.getByRole('link', { name: 'User Panel' })).toHaveCount(0);
    }
  });

  test('a phone menu left open closes when the window grows to 992 px: the bar gets its dropdown back @phone', async ({
    page,
    signIn,
  }, testInfo) => {
    test.skip(!isMobile(testInfo.project.name), 'the phone layout');
    await signIn('Grace Hopper');
    await page.goto('/');
    const header = page.locator('header');
    await header.getByRole('button', { name: 'Menu', exact: true }).click();
    await expect(header.getByRole('link', { name: 'User Panel' })).toBeVisible();
    await page.setViewportSize({ width: 1200, height: 844 });
    await expect(page.locator('.offcanvas-backdrop')).toHaveCount(0);
    await expect(header.getByRole('link', { name: 'User Panel' })).toHaveCount(0);
    await header.getByRole('button', { name: 'Grace Hopper' }).click();
    await expect(header.getByRole('link', { name: 'User Panel' })).toBeVisible();
  });

  test('at 992 px and wider the links sit in the bar', async ({ page }, testInfo) => {
    test.skip(isMobile(testInfo.project.name), 'the desktop layout');
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeHidden();
    await expect(page.locator('header').getByRole('link', { name: 'About' })).toBeVisible();
  });
});

test('footer: links, support e-mail, social icons, newsletter field and copyright @phone', async ({ page, snap }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  for (const [name, href] of [
    ['About', '/about'],
    ['Contact', '/contact'],
    ['Blog', '/blog'],
    ['Terms and Conditions', '/terms-and-conditions'],
    ['Privacy Policy', '/privacy-policy'],
    ['Cookie Policy', '/cookie-policy'],
    ['Refund Policy', '/refund-policy'],
  ]) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href!);
  }
  await expect(footer.getByRole('link', { name: 'support@kitshop.dev' })).toHaveAttribute(
    'href',
    'mailto:support@kitshop.dev',
  );
  for (const name of ['GitHub', 'X', 'LinkedIn', 'YouTube'])
    await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
  const email = footer.getByLabel('Email');
  await expect(email).toHaveAttribute('type', 'email');
  await expect(email).toHaveAttribute('required', '');
  await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  await expect(footer).toContainText('© 2025 Kitshop');
  await footer.scrollIntoViewIfNeeded();
  await snap('footer');
});

test('every route change scrolls to the top and updates title and page_view', async ({ page, request }) => {
  const { kits } = await loadCatalog(request);
  await page.goto('/');
  await page.locator('#kits').scrollIntoViewIfNeeded();
  await page.getByRole('link', { name: `Details of ${kits[0]!.title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: kits[0]!.title })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page).toHaveTitle(kits[0]!.title);
  await page.goBack();
  await expect(page).toHaveTitle(/^Kitshop/);
  const views = await page.evaluate(() =>
    (window as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer
      .map((e) => Array.from(e))
      .filter((e) => e[1] === 'page_view')
      .map((e) => (e[2] as { page_path: string }).page_path),
  );
  expect(views).toEqual(['/', `/product/${kits[0]!.sef_id}`, '/']);
});

test.describe('not found', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });
  test('any other path shows 404 with HTTP 404', async ({ page, snap }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await expect(page).toHaveTitle('Page Not Found — Kitshop');
    await snap('not-found');
  });
});

test('no screen scrolls sideways @phone', async ({ page, request }) => {
  const [kit] = (await loadCatalog(request)).kits;
  const paths = [
    '/',
    `/product/${kit!.sef_id}`,
    `/docs/${kit!.sef_id}`,
    '/cart',
    '/login',
    '/register',
    '/about',
    '/contact',
    '/support',
    '/blog',
    '/privacy-policy',
    '/terms-and-conditions',
    '/refund-policy',
    '/cookie-policy',
    '/licence',
  ];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator('footer')).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(`${path}: ${scrollWidth}`).toBe(`${path}: ${clientWidth}`);
  }
});
