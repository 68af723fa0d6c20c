import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { unzipSync, zipSync } from 'fflate';
import type pg from 'pg';
import semver from 'semver';
import { OWNER_SHOP_URL } from '../../playwright.config.ts';
import { createAccount, expect, grantKits, loadCatalog, readEmail, signInThroughForm, test } from './fixtures.ts';

/** Publishing changes a kit's version: these run on the owner console's shop, beside admin.spec. */
test.use({
  baseURL: `${OWNER_SHOP_URL}/`,
  database: 'owner',
  // The refused archive's 422 is the browser's console line for an answer the form shows.
  allowedConsoleErrors: [/status of 422/],
});

async function ownerAccount(db: pg.Pool) {
  const owner = await createAccount(db, { name: 'Vera Versions' });
  await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
  return owner;
}

/** With E2E_SCREENSHOTS, the screen at 1440 and at 390 px, for a person to look at. */
async function looks(page: Page, name: string) {
  if (!process.env.E2E_SCREENSHOTS) return;
  const size = page.viewportSize()!;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `test-screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

/** The kit's newest downloadable version and the next minor one (earlier runs may have published some). */
async function versionsOf(db: pg.Pool, kitId: number) {
  const { rows } = await db.query<{ version: string; yanked: boolean }>(
    'SELECT version, yanked_at IS NOT NULL AS yanked FROM kit_versions WHERE kit_id = $1',
    [kitId],
  );
  const current = semver.rsort(rows.filter((r) => !r.yanked).map((r) => r.version))[0]!;
  const highest = semver.rsort(rows.map((r) => r.version))[0]!;
  return { current, next: semver.inc(highest, 'minor')! };
}

test('an owner publishes a version with notes from an uploaded archive; a buyer reads the changelog and downloads the upgrade patch', async ({
  page,
  db,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const { kits } = await loadCatalog(request);
  const kit = kits[2]!;

  // A buyer who downloaded the kit's current version.
  const buyer = await createAccount(db, { name: `Ben Buyer ${randomBytes(3).toString('hex')}` });
  await grantKits(db, buyer.id, [kit.id]);
  const buyerContext = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
  const buyerPage = await buyerContext.newPage();
  await signInThroughForm(buyerPage, buyer);
  const { current, next } = await versionsOf(db, kit.id);
  const old = await buyerPage.request.get(`download/${kit.id}`);
  expect(old.status()).toBe(200);

  // The new version: the old files in the folder the guides expect, with a new guide added.
  const oldRoot = `${kit.sef_id}-${current}`;
  const files: Record<string, Uint8Array> = {};
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(await old.body())))) {
    if (!name.endsWith('/')) files[`${kit.sef_id}-${next}/${name.slice(oldRoot.length + 1)}`] = bytes;
  }
  files[`${kit.sef_id}-${next}/UPGRADING.md`] = new TextEncoder().encode(
    `# Upgrading to ${next}\n\nApply the patch.\n`,
  );

  const owner = await ownerAccount(db);
  await signInThroughForm(page, owner);
  await page.goto('admin/kits');
  await page.getByRole('link', { name: kit.title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: kit.title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Versions' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`^${current.replace(/\./g, '\\.')}\\b`) })).toBeVisible();

  const form = page.getByRole('form', { name: 'Publish Version' });
  // A wrong folder is refused with the reason, under the field.
  await form.getByLabel('Version').fill(next);
  await form.getByLabel('Release notes').fill(`## What's new\n\n- An upgrading guide for ${next}`);
  await form.getByLabel('Archive').setInputFiles({
    name: 'wrong.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(zipSync({ 'elsewhere/README.md': new TextEncoder().encode('x') })),
  });
  await form.getByRole('button', { name: 'Publish Version' }).click();
  await expect(form.getByText(`one folder named ${kit.sef_id}-${next}/`)).toBeVisible();

  await form.getByLabel('Archive').setInputFiles({
    name: `${kit.sef_id}-${next}.zip`,
    mimeType: 'application/zip',
    buffer: Buffer.from(zipSync(files)),
  });
  await form.getByRole('button', { name: 'Publish Version' }).click();
  await expect(page.getByText(`${next} is live; buyers are being told by mail.`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(`^${next.replace(/\./g, '\\.')}\\b`) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: `Yank ${next}` })).toBeVisible();
  await looks(page, 'kit-versions-owner');

  const mail = await readEmail(buyer.email, { subject: new RegExp(`${next.replace(/\./g, '\\.')} is available`) });
  expect(mail.text).toContain(`An upgrading guide for ${next}`);
  expect(mail.text).toContain(`/user-panel/item/${kit.sef_id}#changelog`);

  await buyerPage.goto(`user-panel/item/${kit.sef_id}#changelog`);
  const changelog = buyerPage.getByRole('region', { name: 'Changelog' });
  await expect(changelog.getByRole('heading', { name: next, exact: true })).toBeVisible();
  await expect(changelog.getByText(`An upgrading guide for ${next}`)).toBeVisible();
  const oldEntry = changelog
    .getByRole('listitem')
    .filter({ has: buyerPage.getByRole('heading', { name: current, exact: true }) });
  await expect(oldEntry.getByText('Downloaded', { exact: true })).toBeVisible();
  await looks(buyerPage, 'kit-versions-buyer');

  const downloading = buyerPage.waitForEvent('download');
  await changelog.getByRole('link', { name: `Upgrade Patch ${current} → ${next}` }).click();
  const patch = readFileSync((await (await downloading).path())!, 'utf8');
  expect(patch).toContain(`# Upgrade patch: ${kit.sef_id} ${current} -> ${next}`);
  expect(patch).toContain('diff --git a/UPGRADING.md b/UPGRADING.md');
  expect(patch).toContain(`+# Upgrading to ${next}`);
  await buyerContext.close();
});
