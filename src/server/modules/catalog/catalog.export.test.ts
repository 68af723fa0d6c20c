import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, FIXTURE_CATALOG } from '../../../../tests/setup/test-app.ts';
import { kits, kitVersions } from '../../db/schema/catalog.ts';
import { createLocalStorage } from '../../integrations/storage/storage.ts';
import { editableFields, findEditableKit, saveKit, storeScreenshot } from './catalog.editor.service.ts';
import { exportCatalog } from './catalog.export.ts';
import { importCatalog } from './catalog.import.ts';

let shop: Awaited<ReturnType<typeof createTestDatabase>>;
let fresh: Awaited<ReturnType<typeof createTestDatabase>>;
const folders: string[] = [];
const folder = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  [shop, fresh] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([shop.drop(), fresh.drop()]);
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** An owner's edit through the editor's service, as the PUT route makes it. */
async function editInConsole(
  db: typeof shop.db,
  sefId: string,
  edit: (kit: ReturnType<typeof editableFields>) => ReturnType<typeof editableFields>,
) {
  await db.transaction(async (tx) => {
    const row = (await findEditableKit(tx, sefId))!;
    const {
      id: _id,
      sef_id: _s,
      version: _v,
      in_content: _i,
      console_changed_at: _c,
      ...input
    } = edit(editableFields(row));
    await saveKit(tx, row, input as Parameters<typeof saveKit>[2], { paddle: false, githubDelivery: true });
  });
}

const catalogRows = async (db: typeof shop.db) =>
  (await db.select().from(kits).orderBy(kits.sefId)).map(
    ({ id: _id, createdAt: _c, updatedAt: _u, consoleChangedAt: _cc, contentHash: _h, ...kit }) => kit,
  );

describe('the console and the content', () => {
  it('leaves a kit changed in both places as the console has it and reports it, unless forced', async () => {
    const content = folder('kitshop-content-');
    cpSync(FIXTURE_CATALOG, content, { recursive: true });
    const storage = createLocalStorage(folder('kitshop-files-'));
    await importCatalog(shop.db, storage, content);
    await editInConsole(shop.db, 'alpha-kit', (kit) => ({ ...kit, price: 55 }));

    // Content unchanged: the console's edit stays and nothing is reported.
    expect(await importCatalog(shop.db, storage, content)).toMatchObject({
      unchanged: ['alpha-kit', 'beta-kit'],
      conflicts: [],
    });
    // Changed in the content too: a conflict, kept as the console has it; beta (not edited) follows the content.
    for (const sef of ['alpha-kit', 'beta-kit']) {
      const file = path.join(content, `kits/${sef}/kit.json`);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), title: `${sef} from content` }));
    }
    expect(await importCatalog(shop.db, storage, content)).toMatchObject({
      updated: ['beta-kit'],
      conflicts: ['alpha-kit'],
    });
    const [alpha] = await shop.db.select().from(kits).where(eq(kits.sefId, 'alpha-kit'));
    expect(alpha).toMatchObject({ title: 'Alpha Kit', priceCents: 5500 });
    expect(alpha!.consoleChangedAt).not.toBeNull();

    const forced = await importCatalog(shop.db, storage, content, undefined, { force: true });
    expect(forced).toMatchObject({ updated: ['alpha-kit'], conflicts: [] });
    const [after] = await shop.db.select().from(kits).where(eq(kits.sefId, 'alpha-kit'));
    expect(after).toMatchObject({ title: 'alpha-kit from content', priceCents: 4900, consoleChangedAt: null });
  });

  it('never removes a kit made in the console, and reports one changed there that left the content', async () => {
    await shop.pool.query('TRUNCATE kits RESTART IDENTITY CASCADE');
    const content = folder('kitshop-content-');
    cpSync(FIXTURE_CATALOG, content, { recursive: true });
    const storage = createLocalStorage(folder('kitshop-files-'));
    await importCatalog(shop.db, storage, content);
    await shop.pool.query(
      `INSERT INTO kits (sef_id, title, spot, features, price_cents, paddle_price_id, version, details, setup_html, docs, position, content_hash, console_changed_at)
       SELECT 'console-kit', title, spot, features, price_cents, 'pri_01consoleconsole0001', '0.0.0', details, '', '[]', 9, 'console', now() FROM kits WHERE sef_id = 'beta-kit'`,
    );
    await editInConsole(shop.db, 'alpha-kit', (kit) => ({ ...kit, spot: 'Edited.' }));
    rmSync(path.join(content, 'kits/alpha-kit'), { recursive: true });
    expect(await importCatalog(shop.db, storage, content)).toMatchObject({ removed: [], conflicts: ['alpha-kit'] });
    const active = await shop.pool.query('SELECT sef_id FROM kits WHERE active ORDER BY sef_id');
    expect(active.rows.map((r) => r.sef_id)).toEqual(['alpha-kit', 'beta-kit', 'console-kit']);
  });
});

describe('npm run catalog -- export DIR', () => {
  it('writes the catalog in the import format: an import of it into an empty shop gives the same catalog', async () => {
    await shop.pool.query('TRUNCATE kits RESTART IDENTITY CASCADE');
    const storage = createLocalStorage(folder('kitshop-files-'));
    await importCatalog(shop.db, storage, FIXTURE_CATALOG);
    // A console edit with an uploaded screenshot, a new docs page and a new FAQ entry.
    const png = readFileSync(path.join(FIXTURE_CATALOG, 'kits/beta-kit/screenshots', 'dashboard.png'));
    const shot = (await storeScreenshot(storage, 'alpha-kit', png))!;
    await editInConsole(shop.db, 'alpha-kit', (kit) => ({
      ...kit,
      price: 39,
      details: {
        ...kit.details,
        screenshots: [...kit.details.screenshots, { ...shot, alt: 'Uploaded', title: '' }],
        faq: [...kit.details.faq, { question: 'Exported?', answer: 'Yes.' }],
      },
      docs: [...kit.docs, { slug: 'extra', markdown: '# Extra\n\nMore text.\n' }],
    }));

    const out = folder('kitshop-export-');
    const report = await exportCatalog(shop.db, storage, out);
    expect(report).toEqual({ written: ['alpha-kit', 'beta-kit'], skipped: [] });
    expect(existsSync(path.join(out, 'kits/alpha-kit/docs/03-extra.md'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(out, 'kits/alpha-kit/kit.json'), 'utf8'))).toMatchObject({
      price: '39.00',
      version: '1.1.0',
    });

    const freshStorage = createLocalStorage(folder('kitshop-files-'));
    expect(await importCatalog(fresh.db, freshStorage, out)).toMatchObject({ created: ['alpha-kit', 'beta-kit'] });
    expect(await catalogRows(fresh.db)).toEqual(await catalogRows(shop.db));
    const sha = async (db: typeof shop.db) =>
      (await db.select({ sha: kitVersions.sha256 }).from(kitVersions).orderBy(kitVersions.kitId)).map((v) => v.sha);
    expect(await sha(fresh.db)).toEqual(await sha(shop.db));
    expect(await freshStorage.readObject('public', shot.url.replace(/^media\//, ''))).toEqual(png);
  });
});

describe('export of a version published as a .tar.gz', () => {
  it('unpacks its single folder into source/', async () => {
    await shop.pool.query('TRUNCATE kits RESTART IDENTITY CASCADE');
    const storage = createLocalStorage(folder('kitshop-files-'));
    await importCatalog(shop.db, storage, FIXTURE_CATALOG);
    const tar = pack();
    tar.entry({ name: 'alpha-kit-2.0.0/', type: 'directory' });
    tar.entry({ name: 'alpha-kit-2.0.0/README.md' }, '# Alpha 2\n');
    tar.entry({ name: 'alpha-kit-2.0.0/src/index.ts' }, 'export const two = 2;\n');
    tar.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of tar.pipe(createGzip())) chunks.push(chunk as Buffer);
    const key = 'archives/alpha-kit/alpha-kit-2.0.0-0123456789abcdef.tar.gz';
    await storage.putPrivate(key, Buffer.concat(chunks));
    const [alpha] = await shop.db.select().from(kits).where(eq(kits.sefId, 'alpha-kit'));
    await shop.db.insert(kitVersions).values({
      kitId: alpha!.id,
      version: '2.0.0',
      releasedOn: '2026-11-29',
      changelog: 'A major version.',
      storageKey: key,
      sizeBytes: 1,
      sha256: 'x',
    });

    const out = folder('kitshop-export-');
    expect((await exportCatalog(shop.db, storage, out)).written).toContain('alpha-kit');
    expect(readFileSync(path.join(out, 'kits/alpha-kit/source/src/index.ts'), 'utf8')).toBe('export const two = 2;\n');
    expect(existsSync(path.join(out, 'kits/alpha-kit/source/alpha-kit-2.0.0'))).toBe(false);
    expect(readFileSync(path.join(out, 'kits/alpha-kit/CHANGELOG.md'), 'utf8')).toMatch(
      /^# Changelog\n\n## 2\.0\.0 - 2026-11-29\n\nA major version\.\n\n## 1\.1\.0 - /,
    );
  });
});
