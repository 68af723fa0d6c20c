import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { createAccount, expect, grantKits, loadCatalog, readDataLayer, test } from './fixtures.ts';

test.describe('what a buyer does with a purchase', () => {
  test('downloads the archive (bytes match the recorded SHA-256), reads the setup guide and the licence @stack', async ({
    page,
    db,
    snap,
  }, testInfo) => {
    const user = await createAccount(db, { name: 'Owner Person' });
    const { rows } = await db.query(
      `SELECT k.id, k.sef_id, k.title, v.version, v.sha256 FROM kits k
         JOIN LATERAL (SELECT version, sha256 FROM kit_versions WHERE kit_id = k.id ORDER BY created_at DESC, id DESC LIMIT 1) v ON true
        WHERE k.active ORDER BY k.position LIMIT 1`,
    );
    const kit = rows[0];
    await grantKits(db, user.id, [kit.id]);
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/user-panel$/);

    const item = page.getByRole('listitem').filter({ hasText: kit.title });
    await expect(item.getByTestId('purchase-version')).toContainText(`Version ${kit.version}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('link', { name: /Download/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${kit.sef_id}-${kit.version}.zip`);
    const file = testInfo.outputPath('kit.zip');
    await download.saveAs(file);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(kit.sha256);

    await item.getByRole('link', { name: /Setup guide/ }).click();
    await expect(page).toHaveURL(new RegExp(`/user-panel/item/${kit.sef_id}$`));
    await expect(page.getByRole('heading', { level: 1, name: kit.title })).toBeVisible();
    const guide = page.getByRole('navigation', { name: 'Guide' });
    await guide.getByRole('link', { name: 'How to Modify' }).click();
    await expect(page.locator('#how-to-modify')).toBeInViewport();
    await guide.getByRole('link', { name: 'Licence Agreement' }).click();
    // Moving through the guide is one visit of the page: one page_view, not one per section.
    const guideViews = (await readDataLayer(page)).filter(
      (e) =>
        e[0] === 'event' &&
        e[1] === 'page_view' &&
        (e[2] as { page_path?: string })?.page_path === `/user-panel/item/${kit.sef_id}`,
    );
    expect(guideViews).toHaveLength(1);
    await page.getByRole('button', { name: 'View Full Licence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Licence Agreement' });
    await expect(dialog).toContainText(/original purchaser/i);
    await snap('item-licence-dialog');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();
    await snap('item-guide');
  });

  test("the setup guide's first command unpacks the downloaded archive and enters a folder it holds", async ({
    page,
    db,
    signIn,
  }) => {
    const user = await signIn('Guide Follower');
    const { rows } = await db.query('SELECT id, title FROM kits WHERE active ORDER BY position LIMIT 2');
    await grantKits(
      db,
      user.id,
      rows.map((r) => r.id),
    );
    await page.goto('/user-panel');
    for (const kit of rows) {
      const item = page.getByRole('listitem').filter({ hasText: kit.title });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        item.getByRole('link', { name: /Download/ }).click(),
      ]);
      const entries = Object.keys(unzipSync(readFileSync((await download.path())!)));
      await item.getByRole('link', { name: /Setup guide/ }).click();
      const first = (await page.locator('#quick-start ~ pre').first().innerText()).split('\n')[0]!.trim();
      const [, zip, folder] = /^unzip (\S+) && cd (\S+)$/.exec(first) ?? [];
      expect(zip, first).toBe(download.suggestedFilename());
      expect(
        entries.filter((name) => name.startsWith(`${folder}/`)),
        `the archive holds ${entries.slice(0, 3).join(', ')}…`,
      ).toEqual(entries);
      await page.goBack();
    }
  });

  test('Purchases links only to pages that exist: no docs for a kit without them, neither for a hidden or removed kit', async ({
    page,
    db,
    signIn,
    request,
    snap,
  }) => {
    const user = await signIn('Link Checker');
    const { kits, products } = await loadCatalog(request);
    const withDocs = products.find((p) => p.documentation)!;
    const withoutDocs = products.find((p) => !p.documentation)!;
    // Copies of a kit with docs, off the store: one an owner hid, one gone from the content.
    const suffix = `${Date.now().toString(36)}${test.info().project.name}`;
    const { rows: gone } = await db.query(
      `INSERT INTO kits (sef_id, title, spot, features, price_cents, paddle_price_id, version, details, setup_html, docs,
                         position, active, hidden_at, content_hash)
       SELECT sef_id || '-' || v.tag || '-' || $2, v.title, spot, features, price_cents, paddle_price_id || v.tag || $2, version,
              details, setup_html, docs, 99, v.active, v.hidden_at, content_hash
         FROM kits, (VALUES ('hidden', 'Hidden Kit ' || $2, true, now()), ('removed', 'Removed Kit ' || $2, false, NULL::timestamptz))
              AS v(tag, title, active, hidden_at)
        WHERE kits.sef_id = $1
       RETURNING id, title`,
      [withDocs.sef_id, suffix],
    );
    try {
      await grantKits(db, user.id, [withDocs.id, withoutDocs.id, ...gone.map((k) => k.id)]);
      await page.goto('/user-panel');
      const links = (title: string) => page.getByRole('listitem').filter({ hasText: title }).getByRole('link');
      await expect(links(withDocs.title)).toHaveText([/Download/, /Documentation/, /Product page/, /Setup guide/]);
      await expect(links(withoutDocs.title)).toHaveText([/Download/, /Product page/, /Setup guide/]);
      for (const kit of gone) await expect(links(kit.title)).toHaveText([/Download/, /Setup guide/]);
      await snap('purchases-links');
      // Every page link on the tab answers with a page, not the not-found one.
      const hrefs = await page
        .getByTestId('purchase')
        .getByRole('link')
        .evaluateAll((all) => all.map((a) => (a as HTMLAnchorElement).href).filter((h) => !h.includes('/download/')));
      for (const href of hrefs) expect((await page.request.get(href)).status(), href).toBe(200);
      expect(kits.some((k) => k.title.startsWith('Hidden Kit'))).toBe(false);
    } finally {
      await db.query('DELETE FROM entitlements WHERE kit_id = ANY($1)', [gone.map((k) => k.id)]);
      await db.query('DELETE FROM kits WHERE id = ANY($1)', [gone.map((k) => k.id)]);
    }
  });

  test('the licence has its own page', async ({ page, snap }) => {
    const response = await page.goto('/licence');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/Licen[cs]e/);
    await expect(page.locator('main')).toContainText(/redistribut/i);
    await snap('licence');
  });

  test.describe('not owned', () => {
    test.use({ allowedConsoleErrors: [/status of 40[13]/] });
    test("someone else's kit guide sends the visitor home", async ({ page, signIn, request }) => {
      await signIn('Not An Owner');
      const { kits } = await loadCatalog(request);
      await page.goto(`/user-panel/item/${kits[0]!.sef_id}`);
      await expect(page).toHaveURL(/\/$/);
    });

    test('a guide asked for while signed out sends the visitor home', async ({ page, request }) => {
      const { kits } = await loadCatalog(request);
      await page.goto(`/user-panel/item/${kits[0]!.sef_id}`);
      await expect(page).toHaveURL(/\/$/);
    });
  });
});
