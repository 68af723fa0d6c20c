import { and, asc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import { centsToDollars } from '../../../common/money.ts';
import type { KitDocs, KitLicence, KitProduct, KitSummary } from '../../../common/schemas/catalog.ts';
import type { Database } from '../../db/open.ts';
import { kitLicences, kits, kitVersions } from '../../db/schema/catalog.ts';

export const CATALOG_CHANNEL = 'catalog_changed';

/** The `content_hash` of a kit created in the owner console: no content was ever imported for it. */
export const CONSOLE_CONTENT_HASH = 'console';

type KitRow = typeof kits.$inferSelect;
/** A licence tier on sale, as the snapshot keeps it. */
export type LicenceTier = {
  id: number;
  tier: string;
  name: string;
  seats: number;
  priceCents: number;
  paddlePriceId: string;
  activationLimit: number;
};
/**
 * A kit with the release day of its current version (null for a kit imported before versions were
 * kept) and its active licence tiers beyond Solo, in kit.json's order.
 */
type ListedKit = KitRow & { releasedOn: string | null; licences: LicenceTier[] };

/** The Solo tier: the kit itself, one developer. */
export const SOLO = { tier: 'solo', name: 'Solo', seats: 1, activationLimit: 3 } as const;

/**
 * What a cart line can hold: a kit in one licence tier. Solo is the kit's own id and price; a tier
 * has its own id, price and Paddle price, and names its kit and tier in its title.
 */
export type Product = {
  id: number;
  kit: ListedKit;
  licence: LicenceTier | null;
  title: string;
  priceCents: number;
  paddlePriceId: string;
  seats: number;
};

/** "Next.js SaaS Starter (Team, 5 developers)": a tier's title on cart lines and orders. */
export const tierTitle = (kitTitle: string, licence: { name: string; seats: number }) =>
  `${kitTitle} (${licence.name}, ${licence.seats} developers)`;

export type CatalogEntry = {
  kit: ListedKit;
  product: KitProduct;
  /** Pre-serialised answers: a cached read costs no database trip and no JSON.stringify. */
  productJson: string;
  docsJson: string | null;
};

export type CatalogSnapshot = {
  list: KitSummary[];
  listJson: string;
  bySef: Map<string, CatalogEntry>;
  byId: Map<number, CatalogEntry>;
  /** Every kit (Solo) and every tier on sale, by the id a cart holds. */
  products: Map<number, Product>;
};

function licencesOf(kit: ListedKit): KitLicence[] {
  const solo = {
    id: kit.id,
    name: SOLO.name,
    seats: 1,
    price: centsToDollars(kit.priceCents),
    paddle_id: kit.paddlePriceId,
  };
  return [
    solo,
    ...kit.licences.map((l) => ({
      id: l.id,
      name: l.name,
      seats: l.seats,
      price: centsToDollars(l.priceCents),
      paddle_id: l.paddlePriceId,
    })),
  ];
}

function toSummary(kit: ListedKit): KitSummary {
  const shot = kit.details.screenshots[0];
  return {
    id: kit.id,
    sef_id: kit.sefId,
    title: kit.title,
    spot: kit.spot,
    features: kit.features,
    price: centsToDollars(kit.priceCents),
    discounted_from: kit.discountedFromCents === null ? null : centsToDollars(kit.discountedFromCents),
    thumbnail: shot ? { url: shot.thumbnail_url, alt: shot.alt } : null,
    version: kit.version,
    released_on: kit.releasedOn,
  };
}

export function buildSnapshot(rows: ListedKit[]): CatalogSnapshot {
  const list = rows.map(toSummary);
  // A bundle names its kits by slug; those on the store are listed with their own prices.
  const summaries = new Map(list.map((k) => [k.sef_id, k]));
  rows.forEach((kit, i) => {
    if (kit.includes.length === 0) return;
    list[i]!.includes = kit.includes.flatMap((sef) => {
      const included = summaries.get(sef);
      return included ? [{ id: included.id, sef_id: sef, title: included.title, price: included.price }] : [];
    });
  });
  const bySef = new Map<string, CatalogEntry>();
  rows.forEach((kit, i) => {
    const product: KitProduct = {
      ...list[i]!,
      documentation: kit.docs.length > 0,
      details: kit.details,
      // A bundle is sold whole: no tiers.
      ...(kit.includes.length === 0 ? { licenses: licencesOf(kit) } : {}),
    };
    const docs: KitDocs | null = kit.docs.length > 0 ? { sef_id: kit.sefId, title: kit.title, pages: kit.docs } : null;
    bySef.set(kit.sefId, {
      kit,
      product,
      productJson: JSON.stringify(product),
      docsJson: docs ? JSON.stringify(docs) : null,
    });
  });
  const products = new Map<number, Product>();
  for (const kit of rows) {
    products.set(kit.id, {
      id: kit.id,
      kit,
      licence: null,
      title: kit.title,
      priceCents: kit.priceCents,
      paddlePriceId: kit.paddlePriceId,
      seats: 1,
    });
    if (kit.includes.length > 0) continue;
    for (const licence of kit.licences)
      products.set(licence.id, {
        id: licence.id,
        kit,
        licence,
        title: tierTitle(kit.title, licence),
        priceCents: licence.priceCents,
        paddlePriceId: licence.paddlePriceId,
        seats: licence.seats,
      });
  }
  return {
    list,
    listJson: JSON.stringify(list),
    bySef,
    byId: new Map([...bySef.values()].map((e) => [e.kit.id, e])),
    products,
  };
}

export type Catalog = ReturnType<typeof createCatalog>;

/**
 * The catalog, read once and kept in memory. An import anywhere sends NOTIFY on CATALOG_CHANNEL;
 * every server listening drops its copy and the next read loads the new one.
 */
export function createCatalog(db: Database) {
  let current: Promise<CatalogSnapshot> | null = null;
  /** What `current` resolved to, while it is still current. */
  let loaded: CatalogSnapshot | undefined;
  let generation = 0;
  const lookups = { hits: 0, misses: 0 };
  const read = () => {
    if (current) lookups.hits++;
    else lookups.misses++;
    return current ?? load();
  };

  function load(): Promise<CatalogSnapshot> {
    const started = generation;
    const loading = db
      .select({
        ...getTableColumns(kits),
        // Qualified by hand: inside a select, Drizzle writes a column without its table, and the
        // subquery's own kit_versions would then be compared with itself.
        releasedOn: sql<string | null>`(SELECT v.released_on FROM ${kitVersions} v
          WHERE v.kit_id = ${kits}.id AND v.version = ${kits}.version LIMIT 1)`,
        licences: sql<LicenceTier[]>`(SELECT coalesce(json_agg(json_build_object('id', l.id, 'tier', l.tier,
            'name', l.name, 'seats', l.seats, 'priceCents', l.price_cents, 'paddlePriceId', l.paddle_price_id,
            'activationLimit', l.activation_limit) ORDER BY l.position, l.id), '[]'::json)
          FROM ${kitLicences} l WHERE l.kit_id = ${kits}.id AND l.active)`,
      })
      .from(kits)
      // A kit an owner hid is off the store (home, product page, cart) until shown again.
      .where(and(eq(kits.active, true), isNull(kits.hiddenAt)))
      .orderBy(asc(kits.position), asc(kits.id))
      .then(buildSnapshot);
    current = loading;
    // A failed load is not cached; an invalidation during the load wins over its result.
    loading.then(
      (snapshot) => {
        if (started !== generation && current === loading) current = null;
        else if (current === loading) loaded = snapshot;
      },
      () => {
        if (current === loading) current = null;
      },
    );
    return loading;
  }

  return {
    snapshot: (): Promise<CatalogSnapshot> => read(),
    /**
     * The snapshot `snapshot()` would answer, when it is in memory already (undefined before the
     * first load and after an invalidation, until the next load ends): for answers that need not
     * wait. An answer counts as a hit; undefined counts as nothing, the caller then asks `snapshot()`.
     */
    loaded(): CatalogSnapshot | undefined {
      if (loaded) lookups.hits++;
      return loaded;
    },
    /** Reads answered from memory (hits) and from the database (misses) so far, for the metrics. */
    lookups: () => ({ ...lookups }),
    invalidate(): void {
      generation++;
      current = null;
      loaded = undefined;
    },
    async entry(sefId: string): Promise<CatalogEntry | undefined> {
      return (await read()).bySef.get(sefId);
    },
  };
}

/** A kit's newest version not withdrawn by an owner: the one its owners download. */
const newestVersion = (kitId: typeof kits.id) =>
  sql`(SELECT ${kitVersions.id} FROM ${kitVersions} WHERE ${kitVersions.kitId} = ${kitId} AND ${kitVersions.yankedAt} IS NULL
        ORDER BY ${kitVersions.createdAt} DESC, ${kitVersions.id} DESC LIMIT 1)`;

/** Kits (active or not: an owner keeps what a removed kit sold them), each with its newest version. */
const kitsWithNewestVersion = (db: Pick<Database, 'select'>, where: SQL) =>
  db
    .select({
      id: kits.id,
      sefId: kits.sefId,
      title: kits.title,
      spot: kits.spot,
      /** On the store now (product page and docs served): in the content and not hidden by an owner. */
      listed: sql<boolean>`(${kits.active} AND ${kits.hiddenAt} IS NULL)`,
      hasDocs: sql<boolean>`(jsonb_array_length(${kits.docs}) > 0)`,
      versionId: kitVersions.id,
      version: kitVersions.version,
      releasedOn: kitVersions.releasedOn,
      importedAt: kitVersions.createdAt,
      storageKey: kitVersions.storageKey,
      sha256: kitVersions.sha256,
      format: kitVersions.format,
    })
    .from(kits)
    .leftJoin(kitVersions, eq(kitVersions.id, newestVersion(kits.id)))
    .where(where);

/** These kits, each with its newest version and when that version was imported. */
export async function findKitReleases(db: Pick<Database, 'select'>, kitIds: number[]) {
  return kitIds.length === 0 ? [] : kitsWithNewestVersion(db, inArray(kits.id, kitIds));
}

/** A kit and the file of its newest version: what `/download/{id}` hands out. */
export async function findKitArchive(db: Pick<Database, 'select'>, kitId: number) {
  const [row] = await kitsWithNewestVersion(db, eq(kits.id, kitId));
  if (!row) return undefined;
  const { sefId, versionId, version, storageKey, sha256, format } = row;
  return {
    sefId,
    version:
      versionId === null
        ? undefined
        : { id: versionId, version: version!, storageKey: storageKey!, sha256: sha256!, format: format! },
  };
}

/** A kit (active or not) by slug, with its setup guide: the item page of an owner. */
export async function findKitGuide(db: Pick<Database, 'select'>, sefId: string) {
  const [kit] = await db
    .select({ id: kits.id, title: kits.title, spot: kits.spot, setupHtml: kits.setupHtml })
    .from(kits)
    .where(eq(kits.sefId, sefId))
    .limit(1);
  return kit;
}

/**
 * The kits (active or not) delivered as a GitHub repository: a relation `(kit_id, repository)` to
 * embed in a caller's statement.
 */
export const kitRepositoriesSql = (): SQL =>
  sql`SELECT k.id AS kit_id, k.github_repository AS repository FROM ${kits} k WHERE k.github_repository IS NOT NULL`;

/** A kit's title, as an expression to embed in a caller's statement (the kit id column as argument). */
export const kitTitleSql = (kitId: SQL): SQL => sql`(SELECT k.title FROM ${kits} k WHERE k.id = ${kitId})`;

/** A kit's `{sef_id, title}` as JSON, to embed in a caller's statement (the kit id column as argument). */
export const kitNamesSql = (kitId: SQL): SQL =>
  sql`(SELECT json_build_object('sef_id', k.sef_id, 'title', k.title) FROM ${kits} k WHERE k.id = ${kitId})`;

/**
 * A kit version's name ("1.4.0"), as an expression to embed in a caller's statement (the version id
 * column as argument), so a caller listing its rows that point at versions labels them in one query.
 */
export const kitVersionNameSql = (versionId: SQL): SQL =>
  sql`(SELECT v.version FROM ${kitVersions} v WHERE v.id = ${versionId})`;

/**
 * Holds one dedicated connection LISTENing for catalog changes, reconnecting when it drops
 * (and invalidating then too: a NOTIFY may have been missed while it was away).
 */
export function listenForCatalogChanges(
  connect: () => Promise<pg.PoolClient | pg.Client>,
  onChange: () => void,
  log: { warn: (obj: object, msg: string) => void },
): { close: () => Promise<void> } {
  let client: pg.PoolClient | pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const start = async (): Promise<void> => {
    try {
      const c = await connect();
      if (closed) return release(c);
      client = c;
      c.on('notification', (message) => {
        if (message.channel === CATALOG_CHANNEL) onChange();
      });
      c.on('error', (error) => {
        if (closed || client !== c) return; // shutting down, or already replaced
        log.warn({ err: error }, 'catalog listener lost its connection; reconnecting');
        client = undefined;
        release(c);
        schedule();
      });
      await c.query(`LISTEN ${CATALOG_CHANNEL}`);
      onChange();
    } catch (error) {
      log.warn({ err: error }, 'catalog listener could not connect; retrying');
      schedule();
    }
  };
  const schedule = () => {
    if (!closed) retry = setTimeout(start, 1000);
  };
  const released = new WeakSet<object>();
  const release = (c: pg.PoolClient | pg.Client) => {
    if (released.has(c)) return;
    released.add(c);
    if ('release' in c) c.release(true);
    else c.end().catch(() => {});
  };
  void start();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      if (client) release(client);
      client = undefined;
    },
  };
}

/**
 * A licence tier (active or not: a sold tier stays what it was sold as), with its kit: what a
 * Team line's seats and licence keys read.
 */
export async function findLicence(db: Pick<Database, 'select'>, licenceId: number) {
  const [row] = await db
    .select({
      id: kitLicences.id,
      kitId: kitLicences.kitId,
      tier: kitLicences.tier,
      name: kitLicences.name,
      seats: kitLicences.seats,
      activationLimit: kitLicences.activationLimit,
    })
    .from(kitLicences)
    .where(eq(kitLicences.id, licenceId));
  return row;
}

/** The activation limits of these licence tiers, by tier id, in one query (a batch of paid lines). */
export async function licenceActivationLimits(
  db: Pick<Database, 'select'>,
  licenceIds: number[],
): Promise<Map<number, number>> {
  if (licenceIds.length === 0) return new Map();
  const rows = await db
    .select({ id: kitLicences.id, activationLimit: kitLicences.activationLimit })
    .from(kitLicences)
    .where(inArray(kitLicences.id, [...new Set(licenceIds)]));
  return new Map(rows.map((row) => [row.id, row.activationLimit]));
}
