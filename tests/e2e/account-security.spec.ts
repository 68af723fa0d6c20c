import type { Browser, Page } from '@playwright/test';
import { generate } from 'otplib';
import { E2E_PORT } from '../../playwright.config.ts';
import { createAccount, expect, test } from './fixtures.ts';

const now = () => Math.floor(Date.now() / 1000);

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function signOut(page: Page) {
  await page.goto('exit');
  await expect(page.getByRole('alert').filter({ hasText: 'Logout Successfull' })).toBeVisible();
  expect((await page.request.get('api/account/sessions')).status()).toBe(401);
}

/** The same account signed in in another browser (own cookies); `call` reads its sessions list. */
async function otherBrowserSignedIn(browser: Browser, baseURL: string, user: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/');
  const csrf = await page.evaluate(
    () => JSON.parse(document.getElementById('initial-data')!.textContent!).csrf as string,
  );
  const login = await context.request.post('api/login', {
    headers: { 'x-csrf-token': csrf },
    data: { email: user.email, password: user.password },
  });
  expect(login.ok()).toBe(true);
  return {
    call: () => context.request.get('api/account/sessions'),
    close: () => context.close(),
  };
}

// Several password sign-ins each (argon2 on a shared machine): more time than the default 30 s.
test.describe.configure({ timeout: 90_000 });

test.describe('two-step sign-in and sessions', () => {
  test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

  test('sets up two-step sign-in from the shown secret; signs in with password and code, then a recovery code; a used one is refused @stack', async ({
    page,
    db,
    snap,
  }) => {
    const user = await createAccount(db, { name: 'Katherine Johnson' });
    try {
      await signInWithPassword(page, user.email, user.password);
      await expect(page).toHaveURL(/\/user-panel$/);
      await page.getByRole('tab', { name: 'Profile' }).click();
      await page.getByRole('button', { name: 'Set Up Two-Step Sign-In' }).click();
      await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      const secret = (await page.getByTestId('two-step-secret').textContent())!.trim();
      await snap('profile-two-step-setup');
      await page.getByLabel('Code', { exact: true }).fill(await generate({ secret }));
      await page.getByRole('button', { name: 'Turn On' }).click();
      const codes = page.getByRole('list', { name: 'Recovery Codes' }).getByRole('listitem');
      await expect(codes).toHaveCount(10);
      const recovery = (await codes.first().textContent())!.trim();
      await expect(page.getByText(/On: signing in with your password also asks for a code/)).toBeVisible();
      await snap('profile-two-step-on');

      await signOut(page);
      await signInWithPassword(page, user.email, user.password);
      await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
      await snap('login-second-step');
      // The setup took this 30-second step's code; the next step's code is the one to type now.
      await page.getByLabel('Code').fill(await generate({ secret, epoch: now() + 30 }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Login Successfull' })).toBeVisible();
      await expect(page).toHaveURL(/\/user-panel$/);

      await signOut(page);
      await signInWithPassword(page, user.email, user.password);
      await page.getByLabel('Code').fill(recovery);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page).toHaveURL(/\/user-panel$/);

      await signOut(page);
      await signInWithPassword(page, user.email, user.password);
      await page.getByLabel('Code').fill(recovery);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByTestId('login-warning')).toContainText('already used');
      expect((await page.request.get('api/account/sessions')).status()).toBe(401);
    } finally {
      await page.close();
      await db.query('DELETE FROM users WHERE id = $1', [user.id]);
    }
  });

  test('shows two sessions and ends the other one, whose next call is 401 @stack', async ({
    page,
    db,
    browser,
    baseURL,
    snap,
  }) => {
    const user = await createAccount(db, { name: 'Dorothy Vaughan' });
    const other = await otherBrowserSignedIn(browser, baseURL!, user);
    try {
      await signInWithPassword(page, user.email, user.password);
      await expect(page).toHaveURL(/\/user-panel$/);
      await page.getByRole('tab', { name: 'Profile' }).click();
      const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
      await expect(sessions).toHaveCount(2);
      await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
      await snap('profile-sessions');
      expect((await other.call()).status()).toBe(200);
      await sessions
        .filter({ hasNotText: 'This device' })
        .getByRole('button', { name: /Sign Out/ })
        .click();
      await expect(sessions).toHaveCount(1);
      expect((await other.call()).status()).toBe(401);
    } finally {
      await other.close();
      await page.close();
      await db.query('DELETE FROM users WHERE id = $1', [user.id]);
    }
  });

  test('a password change ends the other session', async ({ page, db, browser, baseURL }) => {
    const user = await createAccount(db, { name: 'Mary Jackson' });
    const other = await otherBrowserSignedIn(browser, baseURL!, user);
    try {
      await signInWithPassword(page, user.email, user.password);
      await expect(page).toHaveURL(/\/user-panel$/);
      await page.getByRole('tab', { name: 'Profile' }).click();
      await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(2);
      await page.getByLabel('New Password', { exact: true }).fill('wind-tunnel-1958!');
      await page.getByLabel('Confirm New Password').fill('wind-tunnel-1958!');
      await page.getByRole('button', { name: 'Change Password' }).click();
      await expect(page.getByTestId('change-password-success')).toBeVisible();
      expect((await other.call()).status()).toBe(401);
    } finally {
      await other.close();
      await page.close();
      await db.query('DELETE FROM users WHERE id = $1', [user.id]);
    }
  });
});

/**
 * Chromium's virtual authenticator (DevTools protocol, WebAuthn domain): a platform authenticator
 * with resident keys that verifies the user; the server's verifier runs as in production.
 */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Adds a passkey from the Profile tab; answers the Passkeys list's items, once it holds one. */
async function addPasskeyInProfile(page: Page, name: string) {
  await page.getByRole('tab', { name: 'Profile' }).click();
  await page.getByLabel('Passkey name').fill(name);
  await page.getByRole('button', { name: 'Add Passkey' }).click();
  const passkeys = page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');
  await expect(passkeys).toHaveCount(1);
  return passkeys;
}

/**
 * Keeps the sign-in page's first quiet passkey request (conditional mediation) from starting, so
 * the virtual authenticator does not sign in by itself; later requests go through.
 */
async function keepQuietPasskeyRequestFromStarting(page: Page) {
  let quiet = true;
  await page.route('**/api/passkeys/sign-in/options', (route) => {
    if (!quiet) return route.continue();
    quiet = false;
    return route.abort();
  });
}

// WebAuthn needs a domain name (never an IP address): the /shop server answers on localhost.
test.describe('passkeys', () => {
  test.use({
    baseURL: `http://localhost:${E2E_PORT + 1}/shop/`,
    database: 'shop',
    // The quiet request the test keeps from starting (below).
    allowedConsoleErrors: [/ERR_FAILED/],
  });

  test('adds a passkey in the Profile tab, signs out, and signs in with it: no e-mail, no password @stack', async ({
    page,
    db,
    snap,
  }) => {
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    const user = await createAccount(db, { name: 'Annie Easley' });
    try {
      await signInWithPassword(page, user.email, user.password);
      await expect(page).toHaveURL(/\/user-panel$/);
      const passkeys = await addPasskeyInProfile(page, 'Test laptop');
      await expect(passkeys.first()).toContainText('Test laptop');
      await snap('profile-passkeys');
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);

      // The browser's autofill: the sign-in page asks quietly (conditional mediation) as it opens,
      // and the virtual authenticator answers at once, as a person picking the passkey would.
      await signOut(page);
      await page.goto('login');
      await expect(page.getByRole('alert').filter({ hasText: 'Login Successfull' })).toBeVisible();
      await expect(page).toHaveURL(/\/user-panel$/);

      // The button: the quiet request is kept from starting this time, so the click signs in.
      await signOut(page);
      await keepQuietPasskeyRequestFromStarting(page);
      await page.goto('login');
      await expect(page.getByRole('link', { name: 'Sign in with a passkey' })).toBeVisible();
      await snap('login-passkey');
      await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Login Successfull' })).toBeVisible();
      await expect(page).toHaveURL(/\/user-panel$/);
      await page.getByRole('tab', { name: 'Profile' }).click();
      await expect(
        page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').filter({ hasText: 'This device' }),
      ).toContainText('signed in with passkey');
      await expect(passkeys.first()).toContainText('last used');
    } finally {
      await page.close();
      await db.query('DELETE FROM users WHERE id = $1', [user.id]);
    }
  });

  test('an owner with a passkey who signed in with the password alone is asked for the passkey before the console', async ({
    page,
    db,
    snap,
  }) => {
    await addVirtualAuthenticator(page);
    const owner = await createAccount(db, { name: 'Olga Owner' });
    await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
    try {
      await signInWithPassword(page, owner.email, owner.password);
      await expect(page).toHaveURL(/\/user-panel$/);
      await addPasskeyInProfile(page, 'Owner laptop');

      // The password again, the browser's quiet passkey request kept from starting.
      await signOut(page);
      await keepQuietPasskeyRequestFromStarting(page);
      await signInWithPassword(page, owner.email, owner.password);
      await expect(page).toHaveURL(/\/user-panel$/);
      await page.goto('admin');
      await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
      await expect(page.getByText('a password alone is not enough')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
      await snap('admin-step-up');

      // Signing in again with the passkey (the sign-in page's quiet request, answered at once)
      // comes back to the console.
      await page.getByRole('button', { name: 'Sign in with a passkey or code' }).click();
      await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
      await expect(page).toHaveURL(/\/admin$/);
    } finally {
      await page.close();
      await db.query('DELETE FROM users WHERE id = $1', [owner.id]);
      await db.query('DELETE FROM owners WHERE email = lower($1)', [owner.email]);
    }
  });
});
