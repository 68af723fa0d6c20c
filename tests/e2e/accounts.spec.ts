import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { Pool } from 'pg';
import {
  createAccount,
  expect,
  grantKits,
  keepScreenshot,
  readEmail,
  setGoogleClaims,
  submitSignIn,
  test,
} from './fixtures.ts';

const uniqueEmail = (tag: string) => `${tag}-${randomBytes(5).toString('hex')}@example.com`;
const returnPath = (page: Page) => page.evaluate(() => window.localStorage.getItem('returnPath'));

/** Another person's browser (own cookies), calling the API the way the web app does. */
async function otherBrowser(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/');
  const csrf = await page.evaluate(
    () => JSON.parse(document.getElementById('initial-data')!.textContent!).csrf as string,
  );
  return {
    post: (path: string, data: unknown) => context.request.post(path, { headers: { 'x-csrf-token': csrf }, data }),
    close: () => context.close(),
  };
}

/** An activation link for an address someone else signed up with, in their own browser. */
async function someoneElsesActivationLink(browser: Browser, baseURL: string, name: string, email: string) {
  const other = await otherBrowser(browser, baseURL);
  expect((await other.post('api/register', { name, email, password: 'someone-elses-secret-1' })).ok()).toBe(true);
  await other.close();
  return (await readEmail(email, { subject: /Activate/ })).links.find((l) => l.includes('/email/verify?'))!;
}

async function changePassword(page: Page, password: string) {
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm New Password').fill(password);
  await page.getByRole('button', { name: 'Change Password' }).click();
}

/** Signs in, then ages the session past the 15 minutes a password change allows, and tries one. */
async function changePasswordLongAfterSignIn(
  page: Page,
  db: Pool,
  user: { id: number; email: string; password: string },
) {
  await signInWithPassword(page, user.email, user.password);
  await expect(page).toHaveURL(/\/user-panel$/);
  await db.query("UPDATE sessions SET created_at = now() - interval '20 minutes' WHERE user_id = $1", [user.id]);
  await page.getByRole('tab', { name: 'Profile' }).click();
  await changePassword(page, 'changed-too-late-1');
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await submitSignIn(page, { email, password });
}

test.describe('accounts', () => {
  test.skip(({ isMobile }) => isMobile, 'journeys run once, at desktop width; screens are photographed at both');
  test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

  test('register, follow the activation mail, get signed in, sign out @stack', async ({ page }) => {
    const email = uniqueEmail('reg');
    await page.goto('/register');
    await expect(page.locator('body')).not.toHaveAttribute('data-page-type');
    await page.getByLabel('Full Name').fill('Margaret Hamilton');
    await page.getByLabel('Email').fill(email);
    await expect(page.getByLabel('Password')).toHaveAttribute('placeholder', 'min 8 characters');
    await page.getByLabel('Password').fill('apollo-guidance-1969');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.locator('.alert-success')).toContainText(/check your email/i);
    await expect(page).toHaveURL(/\/$/, { timeout: 5_000 }); // home after 1 s

    const mail = await readEmail(email, { subject: /Activate your Kitshop account/ });
    const link = mail.links.find((l) => l.includes('/email/verify?'))!;
    expect(link).toContain(`email=${encodeURIComponent(email)}`);
    await page.goto(link);
    await expect(page).toHaveURL(/\/cart$/); // no return path stored: the spec's default
    await expect(page.locator('header').getByRole('button', { name: 'Margaret Hamilton' })).toBeVisible();

    // The link works once.
    await page.goto(link);
    await expect(page.getByRole('alert').filter({ hasText: /invalid|used|expired/ })).toBeVisible();

    await page.locator('header').getByRole('button', { name: 'Margaret Hamilton' }).click();
    await page.getByRole('link', { name: 'Exit' }).click();
    await expect(page.getByText('You are leaving this page')).toBeVisible();
    await expect(page.getByRole('link', { name: 'click here' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('alert').filter({ hasText: 'Logout Successfull' })).toContainText(
      'You are being redirected to home page',
    );
    await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
    await expect(page.locator('header').getByRole('link', { name: 'Sign in' })).toBeAttached();
  });

  test('sign-in messages, then sign in to the user panel and its empty Purchases @stack', async ({ page, db }) => {
    const user = await createAccount(db, { name: 'Alan Turing' });
    await page.goto('/login');
    await expect(page.locator('body')).toHaveAttribute('data-page-type', 'login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email and Password fields are required.')).toBeVisible();

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('wrong-password-here');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('These credentials do not match our records.')).toBeVisible();

    await page.getByLabel('Password').fill(user.password);
    await page.getByLabel('Remember Me').check();
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Login Successfull' })).toBeVisible();
    await expect(page).toHaveURL(/\/user-panel$/);
    await expect(page.getByRole('tab', { name: 'Purchases' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('No purchases yet')).toBeVisible();
    await expect(page.locator('main').getByRole('link', { name: 'Browse Kits' })).toHaveAttribute('href', '/#kits');
    const session = (await page.context().cookies()).find((c) => c.name === 'kitshop_session')!;
    expect(session.httpOnly).toBe(true);
    expect(session.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
  });

  test('the user panel sends a signed-out visitor to sign in and back, then lists a granted kit', async ({
    page,
    db,
  }) => {
    const user = await createAccount(db, { name: 'Katherine Johnson' });
    const { rows } = await db.query('SELECT id, sef_id, title FROM kits WHERE active ORDER BY position LIMIT 1');
    const kit = rows[0];
    await grantKits(db, user.id, [kit.id]);

    await page.goto('/user-panel');
    await expect(page).toHaveURL(/\/login$/);
    expect(await returnPath(page)).toBe('user-panel');
    await submitSignIn(page, user);
    await expect(page).toHaveURL(/\/user-panel$/);
    expect(await returnPath(page)).toBeNull();

    const item = page.getByRole('listitem').filter({ hasText: kit.title });
    await expect(item).toBeVisible();
    await expect(item.getByRole('link', { name: /Download/ })).toHaveAttribute('href', `/download/${kit.id}`);
    await expect(item.getByRole('link', { name: /Documentation/ })).toHaveAttribute('href', `/docs/${kit.sef_id}`);
    await expect(item.getByRole('link', { name: /Product page/ })).toHaveAttribute('href', `/product/${kit.sef_id}`);
  });

  test('forgot password, reset through the mailed link, sign in with the new password @stack', async ({ page, db }) => {
    const user = await createAccount(db, { name: 'Barbara Liskov' });
    await page.goto('/forgot-password');
    const send = page.getByRole('button', { name: 'Send Reset Link' });
    await expect(send).toBeDisabled();
    await page.locator('main').getByLabel('Email').fill(user.email);
    await send.click();
    await expect(page.getByText('A reset link has been sent.')).toBeVisible();
    await expect(page.locator('main').getByLabel('Email')).toHaveValue('');

    const mail = await readEmail(user.email, { subject: /Reset your Kitshop password/ });
    await page.goto(mail.links.find((l) => l.includes('/reset-password?'))!);
    await expect(page.locator('main').getByLabel('Email')).toHaveValue(user.email);
    await page.getByLabel('New Password', { exact: true }).fill('substitution-principle-87');
    await page.getByLabel('Confirm New Password').fill('substitution-principle-87');
    await page.getByRole('button', { name: 'Show passwords' }).click();
    await expect(page.getByLabel('New Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Password updated. You can now log in.')).toBeVisible();

    await signInWithPassword(page, user.email, 'substitution-principle-87');
    await expect(page).toHaveURL(/\/user-panel$/);
  });

  test('a reset page without a token says so and cannot be sent', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(page.getByText('Reset token is missing. Please use the link from your email.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reset Password' })).toBeDisabled();
  });

  test('change the password on the Profile tab', async ({ page, db }) => {
    const user = await createAccount(db, { name: 'Frances Allen' });
    await signInWithPassword(page, user.email, user.password);
    await expect(page).toHaveURL(/\/user-panel$/);
    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect(page.getByText('Use at least 8 characters, including a number and a symbol.')).toBeVisible();
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Password fields are required.')).toBeVisible();
    await page.getByLabel('New Password', { exact: true }).fill('optimising-compilers-1');
    await page.getByLabel('Confirm New Password').fill('optimising-compilers-2');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Passwords are not matching.')).toBeVisible();
    await page.getByLabel('Confirm New Password').fill('optimising-compilers-1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.locator('main .alert-success')).toHaveText('Password changed successfully.');
    await expect(page.getByRole('alert').filter({ hasText: 'Password Change Successful' })).toBeVisible();
    expect((await readEmail(user.email, { subject: /password was changed/ })).text).toContain(
      'every other signed-in session',
    );
  });

  test('an activation link opened while signed in verifies the address but keeps the visitor signed in as themself', async ({
    page,
    browser,
    baseURL,
    signIn,
    db,
  }) => {
    // The attacker signs up with an address of their own and gets the victim to open the link.
    const attackerEmail = uniqueEmail('mallory');
    const link = await someoneElsesActivationLink(browser, baseURL!, 'mallory', attackerEmail);

    await signIn('Victor Victim');
    await page.goto(link);
    await expect(page.getByTestId('verify-success')).toHaveText(
      `${attackerEmail} is now verified. You are still signed in to your own account: to use the verified one, sign out and sign in with that address.`,
    );
    await expect(page).toHaveURL(/\/email\/verify\?/);
    await expect(page.locator('header').getByRole('button', { name: 'Victor Victim' })).toBeVisible();
    await page.goto('/user-panel');
    await expect(page.locator('header').getByRole('button', { name: 'Victor Victim' })).toBeVisible();
    const { rows } = await db.query('SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1', [
      attackerEmail,
    ]);
    expect(rows).toEqual([{ verified: true }]);
  });

  test('a password change long after signing in asks to sign in again, then works', async ({ page, db }) => {
    const user = await createAccount(db, { name: 'Radia Perlman' });
    await changePasswordLongAfterSignIn(page, db, user);
    await expect(page.getByTestId('change-password-warning')).toHaveText(
      'For your security, please sign in again to change your password.',
    );
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await returnPath(page)).toBe('user-panel');
    await submitSignIn(page, user);
    await expect(page).toHaveURL(/\/user-panel$/);
    await page.getByRole('tab', { name: 'Profile' }).click();
    await changePassword(page, 'spanning-tree-1985');
    await expect(page.locator('main .alert-success')).toHaveText('Password changed successfully.');
  });

  test('sign up shows the required-fields message', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('All fields are required.')).toBeVisible();
  });
});

test.describe
  .serial('Google sign-in', () => {
    test.skip(({ isMobile }) => isMobile, 'journeys run once, at desktop width');

    /** A kit page stored as the return path, and a new Google account with a verified e-mail. */
    async function returnPathAndNewGoogleAccount(page: Page, request: APIRequestContext, kit: number, name: string) {
      const sefId: string = (await (await request.post('api/products')).json())[kit].sef_id;
      await page.goto(`/product/${sefId}`);
      await page.evaluate((sef) => window.localStorage.setItem('returnPath', `product/${sef}`), sefId);
      setGoogleClaims({
        sub: `google-${randomBytes(4).toString('hex')}`,
        email: uniqueEmail('g'),
        email_verified: true,
        name,
      });
      return sefId;
    }

    test('a new user signs in with Google and lands on the stored return path @stack', async ({ page, request }) => {
      const sefId = await returnPathAndNewGoogleAccount(page, request, 0, 'Grace G');
      await page.goto('/login');
      await page.getByRole('link', { name: 'Sign in with Google' }).click();
      await expect(page).toHaveURL(new RegExp(`/product/${sefId}$`));
      await expect(page.locator('header').getByRole('button', { name: 'Grace G' })).toBeVisible();
    });

    test.describe('before the app has started', () => {
      test.use({ allowedConsoleErrors: [/ERR_FAILED|Failed to load/] });
      test('Sign in with Google still lands on the stored return path', async ({ page, request }) => {
        const sefId = await returnPathAndNewGoogleAccount(page, request, 1, 'Gus G');
        // The app's scripts never arrive: the server's link and the page's first script (boot.js) are all there is.
        await page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort());
        await page.goto('/login');
        await page.getByRole('link', { name: 'Sign in with Google' }).click();
        await expect(page).toHaveURL(new RegExp(`/product/${sefId}$`));
      });
    });

    test('an existing user with the same verified e-mail is linked and signed in', async ({ page, db }) => {
      const user = await createAccount(db, { name: 'Existing Person' });
      setGoogleClaims({
        sub: `google-${randomBytes(4).toString('hex')}`,
        email: user.email,
        email_verified: true,
        name: 'Whatever',
      });
      await page.goto('/register');
      await page.getByRole('link', { name: 'Sign up with Google' }).click();
      await expect(page).toHaveURL(/\/user-panel$/);
      await expect(page.locator('header').getByRole('button', { name: 'Existing Person' })).toBeVisible();
    });

    test('an address someone else signed up with and never verified passes to the Google sign-in; the sign-up password stops working', async ({
      page,
      browser,
      baseURL,
    }) => {
      const victimEmail = uniqueEmail('victim');
      const attacker = await otherBrowser(browser, baseURL!);
      const password = 'chosen-by-the-intruder';
      expect((await attacker.post('api/register', { name: 'Attacker', email: victimEmail, password })).ok()).toBe(true);

      setGoogleClaims({
        sub: `google-${randomBytes(4).toString('hex')}`,
        email: victimEmail,
        email_verified: true,
        name: 'Vera Victim',
      });
      await page.goto('/login');
      await page.getByRole('link', { name: 'Sign in with Google' }).click();
      await expect(page).toHaveURL(/\/user-panel$/);

      const login = await attacker.post('api/login', { email: victimEmail, password, remember: false });
      expect((await login.json()).message).toBe('These credentials do not match our records.');
      expect(login.status()).toBe(422);
      await attacker.close();
      // The account is the victim's now, under the name Google gave.
      await page.reload();
      await expect(page.locator('header').getByRole('button', { name: 'Vera Victim' })).toBeVisible();
    });

    test('a Google account whose e-mail Google has not verified is sent back to sign in, with the reason', async ({
      page,
      db,
    }) => {
      const email = uniqueEmail('unverified');
      setGoogleClaims({
        sub: `google-${randomBytes(4).toString('hex')}`,
        email,
        email_verified: false,
        name: 'Not Verified',
      });
      await page.goto('/register');
      await page.getByRole('link', { name: 'Sign up with Google' }).click();
      await expect(page).toHaveURL(/\/login\?google=unverified$/);
      await expect(page.getByTestId('login-warning')).toContainText('Google has not verified the email address');
      expect((await db.query('SELECT id FROM users WHERE email = $1', [email])).rows).toEqual([]);
    });
  });

test('account screens at both widths @phone', async ({ page, snap, db }) => {
  // Signs up and in through every account screen, with a screenshot of each at two widths.
  test.slow();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await snap('login');
  await page.goto('/register');
  await expect(page.getByRole('button', { name: 'Sign Up' })).toBeVisible();
  await snap('register');
  await page.goto('/forgot-password');
  await snap('forgot-password');
  await page.goto('/reset-password?token=x&email=a%40example.com');
  await snap('reset-password');
  const user = await createAccount(db, { name: 'Screen Shot' });
  await signInWithPassword(page, user.email, user.password);
  await expect(page.getByText('No purchases yet')).toBeVisible();
  await snap('user-panel');
  await page.getByRole('tab', { name: 'Profile' }).click();
  await snap('user-panel-profile');
});

test.describe('security notices', () => {
  test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

  test('at both widths @phone', async ({ page, snap, db, browser, baseURL, signIn }) => {
    await page.goto('/login?google=unverified');
    await expect(page.getByTestId('login-warning')).toBeVisible();
    await snap('login-google-unverified');

    const link = await someoneElsesActivationLink(browser, baseURL!, 'other', uniqueEmail('other'));
    await signIn('Signed In');
    await page.goto(link);
    await expect(page.getByTestId('verify-success')).toBeVisible();
    await snap('verify-email-other-account');

    await changePasswordLongAfterSignIn(page, db, await createAccount(db, { name: 'Old Session' }));
    await expect(page.getByRole('link', { name: 'Sign in again' })).toBeVisible();
    await snap('user-panel-profile-sign-in-again');
  });
});

// At both widths: the toast's place depends on the header's layout.
test.describe('the Profile tab at both widths', () => {
  test.use({ allowedConsoleErrors: [/status of 422/] });
  test("the Profile tab's hint is the rule, refusals read as sentences, and the toast leaves the header clear @phone", async ({
    page,
    db,
    snap,
  }) => {
    const user = await createAccount(db, { name: 'Barbara Liskov' });
    await signInWithPassword(page, user.email, user.password);
    await expect(page).toHaveURL(/\/user-panel$/);
    await page.getByRole('tab', { name: 'Profile' }).click();
    const warning = page.getByTestId('change-password-warning');
    await changePassword(page, 'abstraction-only');
    await expect(warning).toHaveText('Password must include a number.');
    await changePassword(page, 'abstraction1974');
    await expect(warning).toHaveText('Password must include a symbol (such as - ! ? or #).');
    await snap('profile-weak-password');

    await changePassword(page, 'abstraction-1974');
    const toast = page.getByRole('alert').filter({ hasText: 'Password Change Successful' });
    await expect(toast).toBeVisible();
    // Every control of the header stays in sight and takes a click while the toast shows.
    const header = page.locator('header');
    const controls = [header.getByRole('link', { name: /^Cart/ })];
    controls.push(
      (await header.getByRole('button', { name: 'Menu' }).isVisible())
        ? header.getByRole('button', { name: 'Menu' })
        : header.getByRole('button', { name: 'Barbara Liskov' }),
    );
    const box = (await toast.boundingBox())!;
    for (const control of controls) {
      const c = (await control.boundingBox())!;
      const overlaps =
        c.x < box.x + box.width && box.x < c.x + c.width && c.y < box.y + box.height && box.y < c.y + c.height;
      expect(
        overlaps,
        `${(await control.getAttribute('aria-label')) ?? (await control.innerText())} under the toast`,
      ).toBe(false);
      // The trial's checks alone took past a second on a slow machine; the toast shows for 3 s.
      await control.click({ trial: true, timeout: 2_500 });
    }
    const viewport = page.viewportSize()!;
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await keepScreenshot(page, { path: `test-screens/profile-toast-${test.info().project.name}.png` });
  });
});
