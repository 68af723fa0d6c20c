import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type pg from 'pg';
import { RETENTION_DAYS } from '../../src/common/constants.ts';
import {
  createAccount,
  expect,
  keepScreenshot,
  loadCatalog,
  readEmail,
  signInThroughForm,
  submitSignIn,
  test,
} from './fixtures.ts';

type Account = { id: number; name: string; email: string; password: string };

/** Pays for one kit at the sandbox checkout, as a buyer would; answers the order's public id. */
async function buyKit(page: Page, kitId: number) {
  await page.evaluate(
    (id) => window.localStorage.setItem('cart', JSON.stringify({ count: 1, items: { [id]: id } })),
    kitId,
  );
  const cart = page.waitForResponse((r) => r.url().endsWith('/api/cart') && r.request().method() === 'POST');
  await page.goto('/checkout');
  const orderId = ((await (await cart).json()) as { order_id: string }).order_id;
  await page.getByRole('button', { name: 'Make Payment' }).click();
  const frame = page.frameLocator('iframe[title="Payment"]');
  await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
  await frame.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/checkout\?status=success$/);
  return orderId;
}

async function openProfile(page: Page) {
  await page.goto('/user-panel?tab=profile');
  await expect(page.getByRole('heading', { name: 'Delete account' })).toBeVisible();
}

/** A verified buyer who paid for a kit, signed in on this page. */
async function buyerWithOrder(page: Page, db: pg.Pool, request: Parameters<typeof loadCatalog>[0]) {
  const buyer = await createAccount(db, { name: `Pat Privacy ${randomBytes(3).toString('hex')}` });
  const kit = (await loadCatalog(request)).kits[0]!;
  await signInThroughForm(page, buyer);
  const orderId = await buyKit(page, kit.id);
  return { buyer, kit, orderId };
}

test.describe('privacy in the Profile tab', () => {
  test.skip(({ isMobile }) => isMobile, 'journeys run once, at desktop width; the Profile tab is photographed at both');
  test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

  test('Download My Data gives a JSON file with the order and the kit @stack', async ({ page, db, request }) => {
    const { buyer, kit, orderId } = await buyerWithOrder(page, db, request);
    await openProfile(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download My Data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^kitshop-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(readFileSync((await file.path())!, 'utf8'));
    expect(data.profile).toMatchObject({ id: buyer.id, email: buyer.email, name: buyer.name });
    expect(data.orders).toEqual([
      expect.objectContaining({
        order_id: orderId,
        status: 'paid',
        lines: [expect.objectContaining({ kit_id: kit.id })],
      }),
    ]);
    expect(data.kits_owned).toEqual([expect.objectContaining({ kit_id: kit.id, title: kit.title })]);
    expect(data.consents.analytics_in_this_browser).toBe('not chosen');
    expect(JSON.stringify(data)).not.toContain(buyer.password);
  });

  test('Delete Account signs out, ends the sign-in and the downloads, keeps the order for the owner without name or e-mail, and frees the address', async ({
    page,
    db,
    request,
  }) => {
    test.setTimeout(90_000); // a whole journey: buy, delete, owner's view, sign up again
    const { buyer, kit, orderId } = await buyerWithOrder(page, db, request);
    await openProfile(page);
    await page.getByLabel('Current Password').fill(buyer.password);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await expect(page.getByTestId('delete-account-warning')).toHaveText('Type DELETE to confirm.');
    await page.getByLabel('Type DELETE to confirm').fill('DELETE');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Your account has been deleted.').first()).toBeVisible();
    await expect(page.locator('header').getByRole('link', { name: 'Sign in' })).toBeAttached();

    // The download link answers 401 signed out.
    expect((await page.request.get(`/download/${kit.id}`)).status()).toBe(401);
    // The address no longer signs in.
    await page.goto('/login');
    await page.getByLabel('Email').fill(buyer.email);
    await page.getByLabel('Password').fill(buyer.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('These credentials do not match our records.')).toBeVisible();
    const goodbye = await readEmail(buyer.email, { subject: /account has been deleted/ });
    expect(goodbye.text).toMatch(/accounting/);

    // The owner still counts the order, without the buyer's name or e-mail; the kit's download is 403 for another account.
    const owner: Account = await createAccount(db, { name: 'Olive Owner' });
    await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
    await signInThroughForm(page, owner);
    expect((await page.request.get(`/download/${kit.id}`)).status()).toBe(403);
    const order = await (await page.request.get(`/api/admin/orders/${orderId}`)).json();
    expect(order).toMatchObject({ id: orderId, status: 'paid', name: 'Deleted account', email: '' });
    expect(JSON.stringify(order)).not.toContain(buyer.email);
    expect(JSON.stringify(order)).not.toContain(buyer.name);
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByText('Deleted account').first()).toBeVisible();
    await keepScreenshot(page, { path: 'test-screens/privacy-owner-deleted-buyer-desktop.png', fullPage: true });
    await db.query('DELETE FROM owners WHERE email = lower($1)', [owner.email]);

    // The same address signs up afresh.
    await page.goto('/exit');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Pat Again');
    await page.getByLabel('Email').fill(buyer.email);
    await page.getByLabel('Password').fill('a-fresh-start-2026!');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText(/check your email/i).first()).toBeVisible();
    const activation = await readEmail(buyer.email, { subject: /Activate/ });
    await page.goto(activation.links[0]!);
    await expect(page).not.toHaveURL(/email\/verify/); // verified and signed in: on to the cart
    await page.goto('/user-panel');
    await expect(page.getByText('No purchases yet')).toBeVisible();
  });

  test("Change Email: confirmed with a click by the asking account's own session, the old address told, and only the new one signs in", async ({
    page,
    db,
    snap,
  }) => {
    test.slow(); // a whole journey: three sign-ins, two sign-outs and the link opened four times
    const account = await createAccount(db, { name: 'Casey Change' });
    const other = await createAccount(db, { name: 'Olive Other' });
    const newEmail = `moved-${randomBytes(5).toString('hex')}@example.com`;
    await signInThroughForm(page, account);
    await openProfile(page);
    await page.getByLabel('New Email').fill(newEmail);
    await page.getByRole('button', { name: 'Change Email' }).click();
    await expect(page.getByTestId('change-email-success')).toContainText(`We sent a confirmation link to ${newEmail}`);
    const notice = await readEmail(account.email, { subject: /about to change/ });
    expect(notice.text).toContain(newEmail);
    const confirmation = await readEmail(newEmail, { subject: /Confirm your new/ });
    const link = confirmation.links.find((l) => l.includes('/email/change?'))!;
    const address = async (id: number) =>
      (await db.query('SELECT email FROM users WHERE id = $1', [id])).rows[0].email as string;

    // Opened signed out (as a mail scanner would): nothing changes, and a sign-in comes back here.
    await page.goto('/exit');
    await expect(page).toHaveURL(/\/$/);
    await page.goto(link);
    await expect(page.getByTestId('email-change-sign-in')).toContainText(newEmail);
    await expect(page.getByRole('button', { name: 'Confirm New Email' })).toHaveCount(0);
    await snap('email-change-signed-out');
    expect(await address(account.id)).toBe(account.email);

    // Another account's session is refused, and is offered a way out that comes back here.
    await page.getByTestId('email-change-sign-in').getByRole('link', { name: 'Sign in' }).click();
    await submitSignIn(page, other);
    await expect(page).toHaveURL(/\/email\/change\?token=/);
    await page.getByRole('button', { name: 'Confirm New Email' }).click();
    await expect(page.getByTestId('email-change-failed')).toContainText('asked for by another account');
    expect(await address(account.id)).toBe(account.email);
    expect(await address(other.id)).toBe(other.email);
    await snap('email-change-other-account');
    await page.locator('.account-card').getByRole('link', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/$/);

    // The account that asked confirms with a click.
    await signInThroughForm(page, account);
    await expect(page).toHaveURL(/\/email\/change\?token=/);
    await expect(page.getByTestId('email-change-confirm')).toBeVisible();
    await snap('email-change-confirm');
    await page.getByRole('button', { name: 'Confirm New Email' }).click();
    await expect(page.getByTestId('email-change-success')).toContainText(`Your e-mail address is now ${newEmail}`);
    await snap('email-change-confirmed');
    // The link works once.
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm New Email' }).click();
    await expect(page.getByTestId('email-change-failed')).toContainText('already used');

    await page.goto('/exit');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('These credentials do not match our records.')).toBeVisible();
    await signInThroughForm(page, { email: newEmail, password: account.password });
    await expect(page).toHaveURL(/\/user-panel$/);
  });
});

test('the Profile tab at 1440 and 390 @phone', async ({ page, signIn, snap }) => {
  await signIn('Sam Screens');
  await openProfile(page);
  await snap('profile-privacy');
});

test('the privacy policy states the limits the housekeeping deletes by', async ({ page }) => {
  await page.goto('/privacy-policy');
  const retention = page.locator('section', { has: page.locator('h2#retention') });
  await expect(retention).toContainText(`Contact messages: ${RETENTION_DAYS.contactMessages} days`);
  await expect(retention).toContainText(`IP address a message came from, ${RETENTION_DAYS.downloadLogsAndIps} days`);
  await expect(retention).toContainText(
    `with the IP address it came from, for ${RETENTION_DAYS.downloadLogsAndIps} days`,
  );
  await expect(retention).toContainText(`never verified is deleted after ${RETENTION_DAYS.unverifiedAccounts} days`);
});
