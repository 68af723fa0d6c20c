import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { unzipSync, zipSync } from 'fflate';
import type pg from 'pg';
import semver from 'semver';
import { OWNER_SHOP_URL } from '../../playwright.config.ts';
import {
  createAccount,
  createSession,
  expect,
  githubUrl,
  grantKits,
  instanceUrls,
  loadCatalog,
  readEmail,
  signInThroughForm,
  test,
} from './fixtures.ts';
import { addRow, createShownKit, expectImageLoaded, noisePng, ownerAccount } from './owner-kits.ts';

/**
 * Publishing changes a kit's version: these run on the owner console's shop, beside admin.spec. That
 * shop imports releases from the GitHub stand-in, and with E2E_STACK=nginx it is nginx in front of
 * two instances.
 */
test.use({
  baseURL: `${OWNER_SHOP_URL}/`,
  database: 'owner',
  // The refused archive's 422 is the browser's console line for an answer the form shows.
  allowedConsoleErrors: [/status of 422/],
});

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

type Product = {
  price: number;
  version: string;
  details: { faq: { question: string }[]; screenshots: { url: string; alt: string }[] };
};

/**
 * What a visitor without a session is answered about a kit, read once each (no waiting: a change
 * shows at once or the test fails): the rendered product page and the catalog's answer, from the
 * shop's address and, with E2E_STACK=nginx, from each instance behind its nginx asked directly, so
 * that both instances are proven whichever nginx would have picked.
 */
async function answersEverywhere(request: APIRequestContext, sefId: string) {
  const answers = [];
  for (const base of [OWNER_SHOP_URL, ...instanceUrls('owner')]) {
    const rendered = await request.get(`${base}/product/${sefId}`);
    expect(rendered.status(), base).toBe(200);
    const product = await request.post(`${base}/api/product/${sefId}`);
    expect(product.status(), base).toBe(200);
    answers.push({ base, html: await rendered.text(), product: (await product.json()) as Product });
  }
  return answers;
}

/** The GitHub stand-in's controls (tests/setup/github-stand-in.ts), shared with the shop. */
async function standIn(control: 'repository' | 'release', body: object) {
  const res = await fetch(`${githubUrl()}/_stand-in/${control}`, { method: 'POST', body: JSON.stringify(body) });
  expect(res.status, await res.text()).toBe(200);
}

/**
 * The owner journey in one pass, each step checked by a visitor right after it: the price and
 * the FAQ saved, a screenshot uploaded, a version published from an archive, a GitHub release
 * imported. On a kit of its own (made through the API, the editor's own journey is kit-editor.spec),
 * delivered from a repository of its own on the stand-in.
 */
test('an owner changes the price and FAQ, uploads a screenshot, publishes an archive and imports a GitHub release: each shows at once on every instance @stack', async ({
  page,
  db,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const suffix = randomBytes(3).toString('hex');
  const sefId = `stack-kit-${suffix}`;
  const title = `Stack Kit ${suffix}`;
  // A repository of its own on the stand-in, so a retry or another run lists only its releases.
  const repository = `kitshop-dev/${sefId}`;
  await standIn('repository', { name: repository });
  const owner = await ownerAccount(db);
  await page.context().addCookies([{ ...(await createSession(db, owner.id)), url: OWNER_SHOP_URL }]);
  const visitor = await browser.newContext({ baseURL: `${OWNER_SHOP_URL}/`, viewport: page.viewportSize()! });
  const visitorPage = await visitor.newPage();
  const expectVersionShown = async (version: string) => {
    await visitorPage.goto(`product/${sefId}`);
    await expect(visitorPage.getByTestId('purchase-facts').first()).toContainText(`Version ${version}, released`);
    for (const { base, product } of await answersEverywhere(request, sefId))
      expect(product.version, base).toBe(version);
  };
  try {
    await page.goto('admin/kits');
    await createShownKit(page, { sefId, title, price: 30, githubRepository: repository });
    await page.goto(`admin/kits/${sefId}`);
    await expect(page.getByRole('heading', { level: 1, name: `Edit ${title}` })).toBeVisible();
    await page.getByLabel('Price (USD)').fill('24.50');
    await addRow(page, 'Add question', { 'Question 2': 'Does it run on two instances?', 'Answer 2': 'Behind nginx.' });
    // About 2.4 MB: above the 2 MB nginx takes for the shop's other routes, within the 5 MB a
    // screenshot may have.
    const image = noisePng(1000, 800);
    await page
      .getByLabel('Upload screenshot')
      .setInputFiles({ name: 'noise.png', mimeType: 'image/png', buffer: image });
    await expect(page.getByLabel('Alt text 2')).toBeVisible();
    await page.getByLabel('Alt text 2').fill('Two megabytes of noise');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Kit saved').first()).toBeVisible();

    await visitorPage.goto(`product/${sefId}`);
    await expect(visitorPage.getByText('$24.50').first()).toBeVisible();
    await expect(visitorPage.getByText('Does it run on two instances?')).toBeVisible();
    await expectImageLoaded(
      visitorPage.getByRole('button', { name: 'Enlarge Two megabytes of noise' }).getByRole('img'),
    );
    for (const { base, html, product } of await answersEverywhere(request, sefId)) {
      expect(product.price, base).toBe(24.5);
      expect(html, base).toContain('Does it run on two instances?');
      const shot = product.details.screenshots.find((s) => s.alt === 'Two megabytes of noise');
      expect(shot, base).toBeDefined();
      const bytes = await request.get(`${base}/${shot!.url}`);
      expect(bytes.status(), base).toBe(200);
      expect((await bytes.body()).equals(image), base).toBe(true);
    }

    // A version from an uploaded archive.
    const form = page.getByRole('form', { name: 'Publish Version' });
    await form.getByLabel('Version').fill('1.0.0');
    await form.getByLabel('Release notes').fill('## First\n\n- Published from an upload');
    await form.getByLabel('Archive').setInputFiles({
      name: `${sefId}-1.0.0.zip`,
      mimeType: 'application/zip',
      buffer: Buffer.from(zipSync({ [`${sefId}-1.0.0/README.md`]: new TextEncoder().encode('# Stack Kit\n') })),
    });
    await form.getByRole('button', { name: 'Publish Version' }).click();
    await expect(page.getByText('1.0.0 is live; buyers are being told by mail.')).toBeVisible();
    await expectVersionShown('1.0.0');

    // A release on GitHub (the stand-in), imported: its tag the version, its body the notes.
    await standIn('release', {
      repository,
      tag: 'v1.1.0',
      name: 'Two instances',
      body: '## Imported\n\n- Notes written on GitHub',
      files: { 'README.md': '# Stack Kit 1.1.0\n' },
    });
    await page.getByRole('button', { name: 'Import Release' }).click();
    const dialog = page.getByRole('dialog', { name: `Import a release of ${repository}` });
    await dialog.getByRole('radio', { name: /\(v1\.1\.0\)/ }).check();
    await dialog.getByRole('button', { name: 'Publish Release' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('1.1.0 is live; buyers are being told by mail.')).toBeVisible();
    await expect(page.getByRole('row', { name: /^1\.1\.0\b/ })).toBeVisible();
    await expectVersionShown('1.1.0');

    // A buyer reads the release's notes in the kit's changelog.
    const buyer = await createAccount(db, { name: 'Stan Stack' });
    const kitId = (await db.query('SELECT id FROM kits WHERE sef_id = $1', [sefId])).rows[0].id as number;
    await grantKits(db, buyer.id, [kitId]);
    await visitor.addCookies([{ ...(await createSession(db, buyer.id)), url: OWNER_SHOP_URL }]);
    await visitorPage.goto(`user-panel/item/${sefId}#changelog`);
    const changelog = visitorPage.getByRole('region', { name: 'Changelog' });
    await expect(changelog.getByRole('heading', { name: '1.1.0', exact: true })).toBeVisible();
    await expect(changelog.getByText('Notes written on GitHub')).toBeVisible();
  } finally {
    await visitor.close();
    // Off the store again (its versions and buyer stay, as for any kit an owner hides).
    await db.query('UPDATE kits SET hidden_at = now() WHERE sef_id = $1', [sefId]);
    await db.query("SELECT pg_notify('catalog_changed', 'test')");
  }
});
