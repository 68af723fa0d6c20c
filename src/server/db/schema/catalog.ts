import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.ts';

export type KitDetails = {
  demo: { url: string };
  headerCards: { icon: string; title: string; text: string }[];
  video?: { id: string; text: string };
  heading: { title: string; lead: string; features: string[]; text: string };
  screenshotsTitle: string;
  screenshots: { url: string; thumbnail_url: string; alt: string; title: string }[];
  included: string[];
  why: { icon: string; text: string }[];
  faq: { question: string; answer: string }[];
};

export type KitDocPage = { slug: string; title: string; html: string };

/** A documentation page as its author wrote it (`docs/NN-<slug>.md`), kept so it can be edited and exported. */
export type KitDocSource = { slug: string; markdown: string };

/** One kit for sale. Rows are never deleted (orders point at them): a kit gone from content is deactivated. */
export const kits = pgTable(
  'kits',
  {
    id: serial('id').primaryKey(),
    sefId: text('sef_id').notNull(),
    title: text('title').notNull(),
    spot: text('spot').notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    priceCents: integer('price_cents').notNull(),
    discountedFromCents: integer('discounted_from_cents'),
    paddlePriceId: text('paddle_price_id').notNull(),
    version: text('version').notNull(),
    /** Sanitised at import. */
    details: jsonb('details').$type<KitDetails>().notNull(),
    /** Setup guide, sanitised HTML with anchors quick-start and how-to-modify. */
    setupHtml: text('setup_html').notNull(),
    /** Documentation pages, sanitised HTML; empty when the kit has no docs. */
    docs: jsonb('docs').$type<KitDocPage[]>().notNull(),
    /** The setup guide's Markdown (null for a kit imported before sources were kept). */
    setupMarkdown: text('setup_markdown'),
    /** The documentation pages' Markdown, in order (null as above). */
    docsMarkdown: jsonb('docs_markdown').$type<KitDocSource[]>(),
    position: integer('position').notNull(),
    /** `owner/name` of the private repository buyers are invited to, if the kit has one. */
    githubRepository: text('github_repository'),
    /** A bundle's kits, by sef_id (`includes` in kit.json); empty for a single kit. */
    includes: jsonb('includes').$type<string[]>().notNull().default([]),
    /** A bundle's lowest upgrade price (`upgrade_floor` in kit.json, cents). */
    upgradeFloorCents: integer('upgrade_floor_cents'),
    active: boolean('active').notNull().default(true),
    /** Set while an owner hides the kit (off the store, owners keep it); an import never clears it. */
    hiddenAt: timestamptz('hidden_at'),
    /**
     * Hash of the content the kit was last imported from, so a re-import can tell "unchanged" without
     * diffing fields (an owner's edit keeps it: it tells whether the content moved on since).
     */
    contentHash: text('content_hash').notNull(),
    /** When the owner console last changed the kit; an import then leaves it alone unless forced. */
    consoleChangedAt: timestamptz('console_changed_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('kits_sef_id_key').on(t.sefId),
    uniqueIndex('kits_paddle_price_id_key').on(t.paddlePriceId),
    index('kits_active_position_idx').on(t.position).where(sql`${t.active}`),
  ],
);

/** A reference to a kit (the other features' tables use it too). */
export const kitIdColumn = () =>
  integer('kit_id')
    .notNull()
    .references(() => kits.id);

/** Every imported version of a kit's archive; the newest is what owners download. Older ones are kept. */
export const kitVersions = pgTable(
  'kit_versions',
  {
    id: serial('id').primaryKey(),
    kitId: kitIdColumn(),
    version: text('version').notNull(),
    releasedOn: text('released_on').notNull(),
    changelog: text('changelog').notNull(),
    storageKey: text('storage_key').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** The release notes as sanitised HTML ('' for versions imported before notes were rendered: `changelog` then). */
    notesHtml: text('notes_html').notNull().default(''),
    /** How the archive is packed: 'zip' or 'tar.gz' (its download's name and type). */
    format: text('format', { enum: ['zip', 'tar.gz'] })
      .notNull()
      .default('zip'),
    /** The publishing form's key: a double click or a retry on another instance publishes once. */
    idempotencyKey: text('idempotency_key'),
    /** Set when an owner withdrew the version from new downloads, with the reason buyers see. */
    yankedAt: timestamptz('yanked_at'),
    yankReason: text('yank_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('kit_versions_kit_version_key').on(t.kitId, t.version),
    index('kit_versions_kit_created_idx').on(t.kitId, t.createdAt),
    uniqueIndex('kit_versions_idempotency_key')
      .on(t.kitId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
  ],
);

/**
 * A kit's licence tiers beyond Solo (`licenses` in kit.json; the kit's own price is Solo, one seat).
 * Each is sold under its own product id, drawn from the kits' sequence so that an id in a cart names
 * a kit or a tier, never both. Rows are never deleted (order lines point at them): a tier gone from
 * the content is deactivated.
 */
export const kitLicences = pgTable(
  'kit_licences',
  {
    id: integer('id').primaryKey().default(sql`nextval('kits_id_seq')`),
    kitId: kitIdColumn(),
    /** The tier's id in kit.json (`team`), unique within its kit. */
    tier: text('tier').notNull(),
    name: text('name').notNull(),
    /** Developers it covers, the buyer's own seat included. */
    seats: integer('seats').notNull(),
    priceCents: integer('price_cents').notNull(),
    paddlePriceId: text('paddle_price_id').notNull(),
    /** Machines each of its licence keys may activate. */
    activationLimit: integer('activation_limit').notNull().default(3),
    position: integer('position').notNull(),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    uniqueIndex('kit_licences_kit_tier_key').on(t.kitId, t.tier),
    uniqueIndex('kit_licences_paddle_price_id_key').on(t.paddlePriceId),
  ],
);
