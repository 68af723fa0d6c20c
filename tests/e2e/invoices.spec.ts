import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from '@playwright/test';
import type pg from 'pg';
import { OWNER_SHOP_URL } from '../../playwright.config.ts';
import { createAccount, expect, loadCatalog, payAtSandboxCheckout, signInThroughForm, test } from './fixtures.ts';

/**
 * Orders and invoices, on the owner console's shop (a refund changes the store; its seller is set in
 * tests/setup/e2e-stack.ts): a buyer's two orders under Orders, the sandbox's own invoice PDF,
 * business details at checkout and added once after, a refund's credit note, the owner's export.
 */
test.use({ baseURL: `${OWNER_SHOP_URL}/`, database: 'owner' });

const usd = (dollars: number) => `USD ${dollars.toFixed(2)}`;

/** What a downloaded file holds: a PDF's text as poppler's pdftotext reads it, or the file as text. */
async function downloaded(download: Download, pdf = true) {
  const file = await download.path();
  return pdf ? execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }) : readFileSync(file, 'utf8');
}

async function download(page: Page, control: Locator) {
  const [file] = await Promise.all([page.waitForEvent('download'), control.click()]);
  return file;
}

async function openOrders(page: Page) {
  await page.goto('/user-panel');
  await page.getByRole('tab', { name: 'Orders' }).click();
  await expect(page).toHaveURL(/tab=orders/);
  return page.getByRole('tabpanel', { name: 'Orders' });
}

async function ownerAccount(db: pg.Pool) {
  const owner = await createAccount(db, { name: 'Otto Owner' });
  await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
  return owner;
}

test('a buyer gets invoices for two orders, adds business details once, and a refund’s credit note', async ({
  page,
  db,
  browser,
  request,
  snap,
}) => {
  test.setTimeout(120_000);
  const { kits } = await loadCatalog(request);
  const [first, second] = [kits[0]!, kits[1]!];
  const buyer = await createAccount(db, { name: 'Grace Hopper' });
  await signInThroughForm(page, buyer);

  // The first order: no business. The thank-you screen empties the cart; the next one is filled after.
  await payAtSandboxCheckout(page, [first.id]);
  await expect(page.getByText('Thank you! Your order is being processed.')).toBeVisible();

  // The second: bought for a business, whose VAT ID is checked for its country's format.
  await page.evaluate(
    (id) => window.localStorage.setItem('cart', JSON.stringify({ count: 1, items: { [id]: id } })),
    second.id,
  );
  await page.goto('/checkout');
  await page.getByRole('switch', { name: 'Buying for a business' }).check();
  await page.getByLabel('Company Name').fill('Hopper Compilers GmbH');
  await page.getByLabel('VAT ID').fill('DE12345');
  await page.getByLabel('Country').selectOption({ label: 'Germany' });
  await page.getByRole('button', { name: 'Make Payment' }).click();
  await expect(page.getByLabel('VAT ID')).toHaveAccessibleDescription(
    /This is not a valid DE VAT ID: it should look like DE123456789\./,
  );
  await expect(page.getByTestId('checkout-frame')).toHaveCount(0);
  await snap('checkout-business');
  await page.getByLabel('VAT ID').fill('DE 123 456 789');
  await page.getByRole('button', { name: 'Make Payment' }).click();
  const frame = page.frameLocator('iframe[title="Payment"]');
  await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
  await frame.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/checkout\?status=success$/);

  // Both orders, newest first.
  const orders = await openOrders(page);
  const rows = orders.getByTestId('order');
  await expect(rows).toHaveCount(2);
  const firstOrder = rows.filter({ hasText: first.title });
  const secondOrder = rows.filter({ hasText: second.title });
  await expect(rows.nth(0)).toContainText(second.title);
  await expect(secondOrder).toContainText('Hopper Compilers GmbH · DE123456789');
  await expect(secondOrder.getByRole('button', { name: 'Add Business Details' })).toHaveCount(0);
  await expect(firstOrder).toContainText(usd(first.price));
  await expect(firstOrder).toContainText('Paid');
  await snap('orders-tab');

  // The first order's invoice: the shop's own PDF.
  const invoice = await downloaded(await download(page, firstOrder.getByRole('link', { name: 'Invoice' })));
  for (const text of [
    'Invoice',
    'Kitshop Test Sales Ltd',
    '1 Market Street',
    'Tax ID: IE1234567WA',
    'Grace Hopper',
    buyer.email,
    first.title,
    'Tax (0%)',
    usd(first.price),
    'Test payment: no charge',
  ])
    expect(invoice).toContain(text);
  const invoiceNumber = /INV-\d{6}/.exec(invoice)?.[0];
  expect(invoiceNumber).toBeDefined();

  // Business details, once: a bad VAT ID gets its field's message first.
  await firstOrder.getByRole('button', { name: 'Add Business Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Business Details' });
  await dialog.getByLabel('Company Name').fill('Flow-Matic Ltd');
  await dialog.getByLabel('VAT ID').fill('GB12');
  await dialog.getByLabel('Country').selectOption('GB');
  await dialog.getByLabel('Street and number').fill('10 Downing Lane');
  await dialog.getByLabel('City').fill('London');
  await dialog.getByRole('button', { name: 'Save Business Details' }).click();
  await expect(dialog.getByLabel('VAT ID')).toHaveAccessibleDescription(/not a valid GB VAT ID/);
  await dialog.getByLabel('VAT ID').fill('GB123456789');
  await snap('orders-business-dialog');
  await dialog.getByRole('button', { name: 'Save Business Details' }).click();
  await expect(dialog).toBeHidden();
  await expect(firstOrder).toContainText('Flow-Matic Ltd · GB123456789');
  await expect(firstOrder.getByRole('button', { name: 'Add Business Details' })).toHaveCount(0);
  const updated = await downloaded(await download(page, firstOrder.getByRole('link', { name: 'Invoice' })));
  for (const text of ['Flow-Matic Ltd', 'VAT ID: GB123456789', '10 Downing Lane', 'United Kingdom', invoiceNumber!])
    expect(updated).toContain(text);

  // The owner refunds the second order; the buyer finds its credit note.
  const ownerContext = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
  const ownerPage = await ownerContext.newPage();
  await signInThroughForm(ownerPage, await ownerAccount(db));
  const secondId = (await secondOrder.getByRole('heading').innerText()).replace(/^Order\s+/, '').trim();
  await ownerPage.goto(`/admin/orders/${secondId}`);
  await ownerPage.getByRole('button', { name: 'Refund', exact: true }).click();
  const refund = ownerPage.getByRole('dialog', { name: /Refund order/ });
  await refund.getByLabel('Reason').fill('Bought for the wrong team');
  await refund.getByRole('button', { name: /^Refund \$/ }).click();
  await expect(refund).toBeHidden();

  // The owner's accounting export holds both orders and the refund.
  await ownerPage.goto('/admin/orders');
  const csv = await downloaded(await download(ownerPage, ownerPage.getByRole('link', { name: 'Export CSV' })), false);
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'date,order_number,buyer_email,country,company,vat_id,kits,net,discount,tax,gross,currency,transaction_id,status',
  );
  expect(lines.filter((l) => l.includes(buyer.email)).map((l) => l.split(',').at(-1))).toEqual([
    'paid',
    'refunded',
    'refund',
  ]);
  await ownerContext.close();

  await page.reload();
  await expect(secondOrder).toContainText('Refunded');
  const creditNote = await downloaded(await download(page, secondOrder.getByRole('link', { name: /^Credit note/ })));
  for (const text of ['Credit note', /CN-\d{6}/, second.title, 'Hopper Compilers GmbH', usd(second.price)])
    expect(creditNote).toMatch(text);
});
