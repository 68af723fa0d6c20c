import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DEMO_CATALOG, FIXTURE_CATALOG } from '../../../../tests/setup/test-app.ts';
import { createLocalStorage } from '../../integrations/storage/storage.ts';
import { importCatalog } from './catalog.import.ts';
import { CatalogContentError, readCatalog } from './catalog.read.ts';
import { createCatalog, listenForCatalogChanges } from './catalog.service.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;
let dataDir: string;
const storage = () => createLocalStorage(dataDir);
const editJson = (file: string, edit: (value: Record<string, unknown>) => void) => {
  const full = path.join(dir, file);
  const value = JSON.parse(readFileSync(full, 'utf8'));
  edit(value);
  writeFileSync(full, JSON.stringify(value));
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-catalog-'));
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-files-'));
  cpSync(FIXTURE_CATALOG, dir, { recursive: true });
  await database.pool.query('TRUNCATE kits RESTART IDENTITY CASCADE');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('importCatalog', () => {
  it('refuses a released version whose source changed, naming the kit, and changes nothing', async () => {
    await importCatalog(database.db, storage(), dir);
    const before = await database.pool.query('SELECT kit_id, version, sha256 FROM kit_versions ORDER BY id');
    writeFileSync(path.join(dir, 'kits/alpha-kit/source/README.md'), '# Alpha kit, edited without a new version\n');
    const error = await importCatalog(database.db, storage(), dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogContentError);
    expect((error as CatalogContentError).message).toContain(
      'kits/alpha-kit/source: changed since version 1.1.0 was released; add a new version to CHANGELOG.md and kit.json',
    );
    const after = await database.pool.query('SELECT kit_id, version, sha256 FROM kit_versions ORDER BY id');
    expect(after.rows).toEqual(before.rows);
  });

  it('creates, then reports unchanged, updated and removed kits, keeping ids stable', async () => {
    expect(await importCatalog(database.db, storage(), dir)).toEqual({
      created: ['alpha-kit', 'beta-kit'],
      updated: [],
      unchanged: [],
      removed: [],
      conflicts: [],
    });
    const before = await database.pool.query('SELECT id, sef_id FROM kits ORDER BY id');
    expect(await importCatalog(database.db, storage(), dir)).toMatchObject({ unchanged: ['alpha-kit', 'beta-kit'] });

    editJson('kits/beta-kit/kit.json', (kit) => {
      kit.price = '24.00';
    });
    rmSync(path.join(dir, 'kits/alpha-kit'), { recursive: true });
    expect(await importCatalog(database.db, storage(), dir)).toEqual({
      created: [],
      updated: ['beta-kit'],
      unchanged: [],
      removed: ['alpha-kit'],
      conflicts: [],
    });
    const after = await database.pool.query('SELECT id, sef_id, active, price_cents FROM kits ORDER BY id');
    expect(after.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
    expect(after.rows).toEqual([
      expect.objectContaining({ sef_id: 'alpha-kit', active: false }),
      expect.objectContaining({ sef_id: 'beta-kit', active: true, price_cents: 2400 }),
    ]);
  });

  it('imports nothing and names every file and field when content is bad', async () => {
    editJson('kits/alpha-kit/kit.json', (kit) => {
      kit.price = 'free';
      kit.discounted_from = '10.00';
    });
    editJson('kits/beta-kit/details.json', (details) => {
      (details.headerCards as { icon: string }[])[0]!.icon = 'unicorn';
      details.extra = true;
    });
    writeFileSync(path.join(dir, 'kits/beta-kit/setup.md'), '# Setup\n\n## Quick Start\n');
    let error: unknown;
    try {
      await importCatalog(database.db, storage(), dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CatalogContentError);
    const problems = (error as CatalogContentError).problems.join('\n');
    expect(problems).toContain('kits/alpha-kit/kit.json: price: must be a positive USD amount');
    expect(problems).toContain('kits/beta-kit/details.json: headerCards.0.icon');
    expect(problems).toContain('kits/beta-kit/details.json: (root)');
    expect(problems).toContain('kits/beta-kit/setup.md: needs a "## How to Modify" section');
    expect((await database.pool.query('SELECT count(*)::int AS n FROM kits')).rows[0].n).toBe(0);
  });

  it('refuses a discount that is not above the price, a bad folder name and a version the changelog lacks', async () => {
    editJson('kits/alpha-kit/kit.json', (kit) => {
      kit.discounted_from = '49.00';
    });
    editJson('kits/beta-kit/kit.json', (kit) => {
      kit.version = '2.0.0';
    });
    cpSync(path.join(FIXTURE_CATALOG, 'kits/beta-kit'), path.join(dir, 'kits/Bad Name'), { recursive: true });
    const error = await readCatalog(dir).catch((e: CatalogContentError) => e);
    expect((error as CatalogContentError).problems).toEqual([
      expect.stringContaining('kits/Bad Name: folder name must be a lowercase slug'),
      'kits/alpha-kit/kit.json: discounted_from: must be higher than price',
      "kits/beta-kit/CHANGELOG.md: the newest entry is 1.1.0 but kit.json's version is 2.0.0",
    ]);
  });

  it('refuses two kits with one Paddle price id', async () => {
    editJson('kits/beta-kit/kit.json', (kit) => {
      kit.paddle_price_id = 'pri_01alphaalphaalpha0001';
    });
    await expect(readCatalog(dir)).rejects.toThrow('paddle_price_id: already used by kits/alpha-kit');
  });

  it('refuses bad licence tiers: Solo by name, twice one id, cheaper than Solo, a price id used elsewhere', async () => {
    editJson('kits/alpha-kit/kit.json', (kit) => {
      kit.licenses = [
        { id: 'solo', name: 'Solo', seats: 2, price: '99.00', paddle_price_id: 'pri_01alphateamalphateam9' },
        { id: 'team', name: 'Team', seats: 1, price: '10.00', paddle_price_id: 'pri_01betabetabeta000002' },
      ];
    });
    const error = await readCatalog(dir).catch((e: CatalogContentError) => e);
    const problems = (error as CatalogContentError).problems;
    expect(problems).toContain('kits/alpha-kit/kit.json: licenses.0.id: solo is the kit itself (its own price)');
    expect(problems).toContain('kits/alpha-kit/kit.json: licenses.1.seats: a tier beyond Solo has at least 2 seats');
    editJson('kits/alpha-kit/kit.json', (kit) => {
      kit.licenses = [
        { id: 'team', name: 'Team', seats: 5, price: '10.00', paddle_price_id: 'pri_01betabetabeta000002' },
        { id: 'team', name: 'Agency', seats: 9, price: '499.00', paddle_price_id: 'pri_01alphaagencyagency1' },
      ];
    });
    const again = ((await readCatalog(dir).catch((e: CatalogContentError) => e)) as CatalogContentError).problems;
    expect(again).toContain('kits/alpha-kit/kit.json: licenses: each tier needs its own id');
    expect(again).toContain('kits/alpha-kit/kit.json: licenses: a tier costs more than the kit (its Solo licence)');
    editJson('kits/alpha-kit/kit.json', (kit) => {
      kit.licenses = [
        { id: 'team', name: 'Team', seats: 5, price: '299.00', paddle_price_id: 'pri_01betabetabeta000002' },
      ];
    });
    await expect(readCatalog(dir)).rejects.toThrow(
      'kits/beta-kit/kit.json: paddle_price_id: already used by kits/alpha-kit (team)',
    );
  });

  it('keeps a tier under its id across imports; a tier gone from kit.json is deactivated, and back again', async () => {
    await importCatalog(database.db, storage(), dir);
    const tiers = async () =>
      (await database.pool.query('SELECT id, tier, seats, activation_limit, active FROM kit_licences ORDER BY id'))
        .rows;
    const [first] = await tiers();
    expect(first).toMatchObject({ tier: 'team', seats: 3, activation_limit: 5, active: true });
    const kitIds = (await database.pool.query('SELECT id FROM kits')).rows.map((r) => r.id);
    expect(kitIds).not.toContain(first.id);
    editJson('kits/alpha-kit/kit.json', (kit) => {
      kit.licenses = undefined;
      kit.upgrade_floor = undefined;
    });
    await importCatalog(database.db, storage(), dir);
    expect(await tiers()).toEqual([{ ...first, active: false }]);
    cpSync(path.join(FIXTURE_CATALOG, 'kits/alpha-kit/kit.json'), path.join(dir, 'kits/alpha-kit/kit.json'));
    editJson('kits/alpha-kit/kit.json', (kit) => {
      (kit.licenses as { seats: number }[])[0]!.seats = 10;
    });
    await importCatalog(database.db, storage(), dir);
    expect(await tiers()).toEqual([{ ...first, seats: 10 }]);
  });

  it('reads the demo catalog the shop ships without a problem', async () => {
    const kits = await readCatalog(DEMO_CATALOG);
    expect(kits.length).toBeGreaterThanOrEqual(6);
    expect(kits.some((k) => k.discountedFromCents !== null)).toBe(true);
    expect(kits.some((k) => k.details.video)).toBe(true);
    expect(kits.some((k) => k.docs.length === 0)).toBe(true);
    expect(kits.some((k) => k.details.included.length > 8)).toBe(true);
    expect(kits.some((k) => k.details.faq.length % 2 === 1)).toBe(true);
  });
});

describe('catalog cache', () => {
  it('serves from memory and drops its copy on the NOTIFY an import sends, in every instance', async () => {
    await importCatalog(database.db, storage(), dir);
    const first = createCatalog(database.db);
    const second = createCatalog(database.db);
    const changed: string[] = [];
    const listeners = [first, second].map((catalog, i) =>
      listenForCatalogChanges(
        () => database.pool.connect(),
        () => {
          changed.push(`instance ${i}`);
          catalog.invalidate();
        },
        { warn: () => {} },
      ),
    );
    try {
      await expect.poll(() => changed.length, { timeout: 10_000 }).toBe(2); // the initial invalidation on connect
      expect(first.loaded()).toBeUndefined();
      const snapshot = await first.snapshot();
      expect(await first.snapshot()).toBe(snapshot); // cached
      const { hits } = first.lookups();
      expect(first.loaded()).toBe(snapshot); // and there without waiting
      expect(first.lookups().hits).toBe(hits + 1);
      expect((await second.entry('beta-kit'))?.product.price).toBe(19.5);

      editJson('kits/beta-kit/kit.json', (kit) => {
        kit.price = '29.00';
      });
      await importCatalog(database.db, storage(), dir);
      await expect.poll(() => changed.length, { timeout: 10_000 }).toBe(4);
      expect(first.loaded()).toBeUndefined();
      expect((await first.entry('beta-kit'))?.product.price).toBe(29);
      expect(first.loaded()?.bySef.get('beta-kit')?.product.price).toBe(29);
      expect((await second.entry('beta-kit'))?.product.price).toBe(29);
    } finally {
      await Promise.all(listeners.map((l) => l.close()));
    }
  });
});
