import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
    position: integer('position').notNull(),
    active: boolean('active').notNull().default(true),
    /** Set while an owner hides the kit (off the store, owners keep it); an import never clears it. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    /** Hash of the imported content, so a re-import can tell "unchanged" without diffing fields. */
    contentHash: text('content_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('kits_sef_id_key').on(t.sefId),
    uniqueIndex('kits_paddle_price_id_key').on(t.paddlePriceId),
    index('kits_active_position_idx').on(t.position).where(sql`${t.active}`),
  ],
);
