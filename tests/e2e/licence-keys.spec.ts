import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { OWNER_SHOP_URL } from '../../playwright.config.ts';
import { createAccount, expect, loadCatalog, payAtSandboxCheckout, signInThroughForm, test } from './fixtures.ts';

/**
 * Licence keys: the buyer's key on the item page, an activation made through the licence API
 * listed there and ended from there, and the owner's Disable that the API then reports. On the
 * owner console's shop (it pays and changes keys, like admin.spec.ts).
 */
test.use({ baseURL: `${OWNER_SHOP_URL}/`, database: 'owner' });

const licenceApi = (verb: string) => `${OWNER_SHOP_URL}/api/v1/licenses/${verb}`;

/** The part of the screen at 1440 and at 390 px wide, for a person to look at (E2E_SCREENSHOTS=1). */
async function lookAt(page: Page, part: Locator, name: string) {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  const size = page.viewportSize()!;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await part.screenshot({ path: `test-screens/${name}-${width}.png` });
  }
  await page.setViewportSize(size);
}

test('a buyer copies the key from the item page, sees an activation made through the API and deactivates it; the owner disables the key and the API says invalid', async ({
  page,
  db,
  browser,
  request,
  snap,
}) => {
  test.setTimeout(90_000);
  const { kits } = await loadCatalog(request);
  const kit = kits[0]!;
  const buyer = await createAccount(db, { name: `Kay Keyholder ${randomBytes(3).toString('hex')}` });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: OWNER_SHOP_URL });
  await signInThroughForm(page, buyer);
  await payAtSandboxCheckout(page, [kit.id]);

  await page.goto(`/user-panel/item/${kit.sef_id}`);
  const card = page.getByRole('region', { name: 'Licence key' });
  await expect(card.getByText('Not activated yet')).toBeVisible();
  const key = (await card.locator('code').innerText()).trim();
  expect(key).toMatch(/^([0-9A-Z]{4}-){7}[0-9A-Z]{4}$/);
  await card.getByRole('button', { name: 'Copy' }).click();
  await expect(card.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expect(card.getByText('Not activated on any machine yet.')).toBeVisible();

  // The kit's own tooling activates it, as Lemon Squeezy's clients do (a form body, no cookie).
  const activated = await request.post(licenceApi('activate'), {
    form: { license_key: key, instance_name: 'Build server' },
  });
  expect(activated.status()).toBe(200);
  expect((await activated.json()).instance.name).toBe('Build server');

  await page.reload();
  await expect(card.getByRole('heading', { name: 'Activations (1 of 3)' })).toBeVisible();
  await expect(card.getByText('Build server')).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await snap('licence-key-item');
  await lookAt(page, card, 'licence-key-item');
  await card.getByRole('button', { name: 'Deactivate Build server' }).click();
  await expect(card.getByText('Not activated on any machine yet.')).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Activations (0 of 3)' })).toBeVisible();
  const validated = await (await request.post(licenceApi('validate'), { data: { license_key: key } })).json();
  expect(validated).toMatchObject({ valid: true, license_key: { status: 'inactive', activation_usage: 0 } });

  // The owner finds the order's key, masked, and disables it.
  const { rows } = await db.query('SELECT public_id FROM orders WHERE user_id = $1', [buyer.id]);
  const owner = await createAccount(db, { name: 'Olive Owner' });
  await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
  const context = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
  const ownerPage = await context.newPage();
  await signInThroughForm(ownerPage, owner);
  await ownerPage.goto(`/admin/orders/${rows[0].public_id}`);
  const keys = ownerPage.getByRole('region', { name: 'Licence keys' });
  const row = keys.getByRole('row').filter({ hasText: kit.title });
  await expect(row.getByText(`****-****-****-****-****-****-****-${key.slice(-4)}`)).toBeVisible();
  await expect(ownerPage.getByText(key)).toHaveCount(0);
  await row.getByRole('button', { name: `Disable ${kit.title} key` }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Disable the licence key' });
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('disabled')).toBeVisible();
  await expect(row.getByRole('button', { name: `Enable ${kit.title} key` })).toBeVisible();
  await lookAt(ownerPage, keys, 'licence-key-owner');
  await context.close();

  const refused = await request.post(licenceApi('validate'), { data: { license_key: key } });
  expect(refused.status()).toBe(200);
  expect(await refused.json()).toMatchObject({ valid: false, license_key: { status: 'disabled' } });
  await page.reload();
  await expect(card.getByText('Disabled by the shop')).toBeVisible();
});
