import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import type pg from 'pg';
import { OWNER_SHOP_URL, ROOT_URL } from '../../playwright.config.ts';
import { formatPrice } from '../../src/common/money.ts';
import { createUser } from '../factories/users.ts';
import {
  createAccount,
  expect,
  expectNoSidewaysScroll,
  githubUrl,
  keepScreenshot,
  loadCatalog,
  payAtSandboxCheckout,
  readEmail,
  signInThroughForm,
  submitSignIn,
  test,
} from './fixtures.ts';

/**
 * Team licences: a buyer picks the Team tier on the product page, pays, invites colleagues from the
 * item page's Seats; a colleague accepts with the invited address and downloads; the buyer removes
 * a member, and a refund ends every seat. On the owner console's shop, whose refunds change nothing
 * the other specs read.
 */
test.use({ baseURL: `${OWNER_SHOP_URL}/`, database: 'owner' });

const address = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;

async function teamKit(request: import('@playwright/test').APIRequestContext) {
  const { products } = await loadCatalog(request);
  const kit = products.find((p) =>
    (p as { licenses?: { name: string }[] }).licenses?.some((l) => l.name === 'Team'),
  ) as (typeof products)[number] & { licenses: { id: number; name: string; seats: number; price: number }[] };
  if (!kit) throw new Error('the demo catalog lacks a kit with a Team licence');
  return { kit, team: kit.licenses.find((l) => l.name === 'Team')! };
}

/** A browser of its own for another person, at the same width as the test's page. */
async function otherBrowser(browser: Browser, page: Page) {
  const context = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
  return { context, page: await context.newPage() };
}

async function invite(page: Page, email: string) {
  const seats = page.getByRole('region', { name: 'Seats' });
  await seats.getByLabel('Email').fill(email);
  await seats.getByRole('button', { name: 'Invite' }).click();
  await expect(seats.getByText(email)).toBeVisible();
}

async function ownerAccount(db: pg.Pool) {
  const owner = await createAccount(db, { name: 'Olive Owner' });
  await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
  return owner;
}

test.describe('team seats', () => {
  // The invite form's refusal of a non-address is a 422 the browser logs.
  test.use({ allowedConsoleErrors: [/the server responded with a status of 422/] });

  test('buy Team, invite two, one accepts and downloads, remove them, refund all @phone', async ({
    page,
    db,
    browser,
    request,
    snap,
  }) => {
    test.setTimeout(120_000);
    const { kit, team } = await teamKit(request);
    const buyer = await createAccount(db, { name: 'Tess Teamlead' });
    await signInThroughForm(page, buyer);

    await page.goto(`product/${kit.sef_id}`);
    const licence = page.getByRole('group', { name: 'Licence' });
    await expect(licence.getByRole('radio', { name: /^Solo/ })).toBeChecked();
    await licence.getByRole('radio', { name: /^Team/ }).check();
    await expect(page.getByTestId('price')).toHaveText(formatPrice(team.price));
    await snap('product-licence');
    if (page.viewportSize()!.width < 992) {
      // A phone's pinned buy bar buys the chosen tier, and names it with its price.
      await page.getByRole('heading', { name: kit.details.heading.title }).scrollIntoViewIfNeeded();
      const bar = page.getByTestId('buy-bar');
      await expect(bar).toContainText(`${kit.title}, Team licence`);
      await expect(bar).toContainText(formatPrice(team.price));
    }
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByText(`${kit.title} (Team, ${team.seats} developers)`)).toBeVisible();
    await payAtSandboxCheckout(page, [team.id]);

    await page.goto(`user-panel/item/${kit.sef_id}`);
    const seats = page.getByRole('region', { name: 'Seats' });
    await expect(seats.getByText(`1 of ${team.seats} seats used`)).toBeVisible();
    await expect(seats.getByText('Tess Teamlead')).toBeVisible();
    // Not an address: the field says so and nothing is sent.
    await seats.getByLabel('Email').fill('not-an-address');
    await seats.getByRole('button', { name: 'Invite' }).click();
    await expect(seats.getByRole('alert')).toHaveText('Enter a valid email address.');
    const [ana, ben] = [address('ana'), address('ben')];
    await invite(page, ana);
    await invite(page, ben);
    await expect(seats.getByText(`3 of ${team.seats} seats used`)).toBeVisible();
    await snap('seats');

    // Ana reads the mail, signs in with her address (in other letters' case) and accepts.
    const mail = await readEmail(ana, { subject: /invited you to a seat/ });
    const link = mail.links.find((l) => l.includes('/seat-invitation/'))!;
    const anaAccount = await createUser(db, { name: 'Ana Dev', email: ana.toUpperCase() });
    const colleague = await otherBrowser(browser, page);
    await colleague.page.goto(link);
    await expect(colleague.page.getByText(`Tess Teamlead invited ${ana}`)).toBeVisible();
    await keepScreenshot(colleague.page, { path: `test-screens/seat-invitation-${test.info().project.name}.png` });
    await colleague.page.getByRole('link', { name: 'Sign In to Accept' }).click();
    await submitSignIn(colleague.page, anaAccount);
    await expect(colleague.page).toHaveURL(/\/seat-invitation\//);
    await colleague.page.getByRole('button', { name: 'Accept' }).click();
    await expect(colleague.page).toHaveURL(new RegExp(`/user-panel/item/${kit.sef_id}$`));
    const hers = colleague.page.getByRole('region', { name: 'Seats' });
    await expect(hers).toContainText(`managed by Tess Teamlead (${buyer.email})`);
    // Her seat has its own licence key, of the Team tier's activation limit.
    const { rows: tier } = await db.query('SELECT activation_limit FROM kit_licences WHERE id = $1', [team.id]);
    const herKey = colleague.page.getByRole('region', { name: 'Licence key' });
    await expect(herKey).toContainText(`Activations (0 of ${tier[0].activation_limit})`);
    await expect(herKey.getByRole('button', { name: 'Copy' })).toBeVisible();
    await colleague.page.goto('user-panel');
    const item = colleague.page.getByRole('listitem').filter({ hasText: kit.title });
    const [download] = await Promise.all([
      colleague.page.waitForEvent('download'),
      item.getByRole('link', { name: /Download/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${kit.sef_id}-.+\\.zip$`));

    // The buyer removes her: her access ends at once.
    await page.reload();
    await expect(seats.getByText('Ana Dev')).toBeVisible();
    await seats.getByRole('button', { name: `Remove Ana Dev (${ana})` }).click();
    await expect(seats.getByText(`2 of ${team.seats} seats used`)).toBeVisible();
    expect((await colleague.page.request.get(`download/${kit.id}`)).status()).toBe(403);

    // The owner sees the seats on the order and refunds it all: Ben's invitation ends, and the buyer's kit.
    const { rows } = await db.query("SELECT public_id FROM orders WHERE user_id = $1 AND status = 'paid'", [buyer.id]);
    const owner = await ownerAccount(db);
    const admin = await otherBrowser(browser, page);
    await signInThroughForm(admin.page, owner);
    await admin.page.goto(`admin/orders/${rows[0].public_id}`);
    await expect(admin.page.getByText(`of ${team.seats} used`)).toBeVisible();
    await expect(admin.page.getByRole('row').filter({ hasText: ben })).toContainText('Invited');
    // The order's keys include Ana's, which ended with her seat.
    const keys = admin.page.getByRole('region', { name: 'Licence keys' });
    await expect(keys.getByRole('row').filter({ hasText: buyer.email })).toContainText('inactive');
    await expect(keys.getByRole('row').filter({ hasText: new RegExp(ana.replaceAll('.', '\\.'), 'i') })).toContainText(
      'revoked',
    );
    await keepScreenshot(admin.page, {
      path: `test-screens/admin-order-seats-${test.info().project.name}.png`,
      fullPage: true,
    });
    await admin.page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = admin.page.getByRole('dialog', { name: /Refund order/ });
    await dialog.getByLabel('Reason').fill('The team changed its mind');
    await dialog.getByRole('button', { name: `Refund $${team.price.toFixed(2)}` }).click();
    await expect(dialog).toBeHidden();
    await expect(admin.page.getByText('Refunded').first()).toBeVisible();

    await page.goto('user-panel');
    await expect(page.getByText('No purchases yet')).toBeVisible();
    const benLink = (await readEmail(ben, { subject: /invited you to a seat/ })).links.find((l) =>
      l.includes('/seat-invitation/'),
    )!;
    await colleague.page.goto(benLink);
    await expect(colleague.page.getByText('This invitation was cancelled or the seat was freed.')).toBeVisible();
    await colleague.context.close();
    await admin.context.close();
  });

  test('the Seats section fits the screen: rows, their buttons and the invite form @phone', async ({
    page,
    db,
    request,
    snap,
  }) => {
    test.setTimeout(60_000);
    const { kit, team } = await teamKit(request);
    const buyer = await createAccount(db, { name: 'Pia Phone' });
    await signInThroughForm(page, buyer);
    await page.goto(`product/${kit.sef_id}`);
    await expect(page.getByRole('group', { name: 'Licence' }).getByRole('radio')).toHaveCount(kit.licenses.length);
    await snap('product-licence-choice');
    await payAtSandboxCheckout(page, [team.id]);
    await page.goto(`user-panel/item/${kit.sef_id}`);
    await invite(page, address('a-rather-long-colleague-name'));
    const seats = page.getByRole('region', { name: 'Seats' });
    const box = (await seats.boundingBox())!;
    const width = page.viewportSize()!.width;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    for (const control of [
      seats.getByRole('button', { name: /^Resend/ }),
      seats.getByRole('button', { name: /^Cancel/ }),
      seats.getByRole('button', { name: 'Invite' }),
      seats.getByLabel('Email'),
    ]) {
      const b = (await control.boundingBox())!;
      expect(b.x + b.width, 'inside the screen').toBeLessThanOrEqual(width);
      expect(b.height, 'big enough to tap').toBeGreaterThanOrEqual(30);
    }
    await expectNoSidewaysScroll(page);
    await seats.scrollIntoViewIfNeeded();
    await snap('seats-section');
  });
});

// The root shop delivers kits as GitHub repositories through the stand-in (tests/setup/github-stand-in.ts).
test.describe('a seat of a Team licence on the shop with GitHub delivery', () => {
  test.use({ baseURL: `${ROOT_URL}/`, database: 'root' });

  test('the seat holder connects their own GitHub account and is invited to the repository', async ({
    page,
    db,
    browser,
    request,
    signIn,
  }) => {
    test.setTimeout(90_000);
    const { kit, team } = await teamKit(request);
    // The buyer, in a browser of their own, buys the Team licence and invites the member's address.
    const buyerAccount = await createAccount(db, { name: 'Gus Buyer' });
    const buyerContext = await browser.newContext({ baseURL: `${ROOT_URL}/`, viewport: page.viewportSize()! });
    const buyer = await buyerContext.newPage();
    await signInThroughForm(buyer, buyerAccount);
    await payAtSandboxCheckout(buyer, [team.id]);
    const member = await signIn('Mia Member');
    const { rows } = await db.query('SELECT email FROM users WHERE id = $1', [member.id]);
    const email = rows[0].email as string;
    await buyer.goto(`user-panel/item/${kit.sef_id}`);
    await invite(buyer, email);

    // The member: signed in at the stand-in's "GitHub" in this browser, accepts, then connects GitHub.
    const login = `mia-${test.info().project.name}-${member.id}`;
    const stand = await fetch(`${githubUrl()}/_stand-in/user`, {
      method: 'POST',
      body: JSON.stringify({ id: 600_000 + member.id, login }),
    });
    expect(stand.ok).toBe(true);
    await page.context().addCookies([{ name: 'stand_in_user', value: login, url: githubUrl() }]);
    const link = (await readEmail(email, { subject: /invited you to a seat/ })).links.find((l) =>
      l.includes('/seat-invitation/'),
    )!;
    await page.goto(link);
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect(page).toHaveURL(new RegExp(`/user-panel/item/${kit.sef_id}$`));
    await page.goto('user-panel');
    const card = page.getByRole('region', { name: 'GitHub repositories' });
    await card.getByRole('link', { name: 'Connect GitHub' }).click();
    await expect(card.getByRole('status')).toContainText('GitHub connected');
    const item = page.getByTestId('purchase').filter({ hasText: kit.title });
    await expect(item.getByRole('link', { name: 'Accept the invitation on GitHub' })).toBeVisible({ timeout: 10_000 });
    const state = (await (await fetch(`${githubUrl()}/_stand-in/state`)).json()) as {
      invitations: { repository: string; login: string }[];
    };
    expect(state.invitations.filter((i) => i.login === login).map((i) => i.repository)).toEqual([
      `kitshop-dev/${kit.sef_id}`,
    ]);
    await buyerContext.close();
    await db.query('DELETE FROM orders WHERE user_id = $1', [buyerAccount.id]);
  });
});
