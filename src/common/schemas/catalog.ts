import { z } from 'zod';

/** A kit as the home grid gets it from `POST /api/products`. Prices are dollars (49.5), never cents. */
export const KitSummarySchema = z.object({
  id: z.number().int(),
  sef_id: z.string(),
  title: z.string(),
  spot: z.string(),
  features: z.array(z.string()),
  price: z.number(),
  discounted_from: z.number().nullable(),
  /** The kit's first screenshot at thumbnail size (640x400), for the home card; null without screenshots. */
  thumbnail: z.object({ url: z.string(), alt: z.string() }).nullable(),
  /** The current version and the day it was released (`YYYY-MM-DD`; null if the store never recorded it). */
  version: z.string(),
  released_on: z.string().nullable(),
  /** A bundle's kits, each with its own price (the saving is their sum less the bundle's); absent for a single kit. */
  includes: z
    .array(z.object({ id: z.number().int(), sef_id: z.string(), title: z.string(), price: z.number() }))
    .optional(),
});

export const KitDetailsSchema = z.object({
  demo: z.object({ url: z.string() }),
  headerCards: z.array(z.object({ icon: z.string(), title: z.string(), text: z.string() })),
  video: z.object({ id: z.string(), text: z.string() }).optional(),
  heading: z.object({ title: z.string(), lead: z.string(), features: z.array(z.string()), text: z.string() }),
  screenshotsTitle: z.string(),
  screenshots: z.array(z.object({ url: z.string(), thumbnail_url: z.string(), alt: z.string(), title: z.string() })),
  included: z.array(z.string()),
  why: z.array(z.object({ icon: z.string(), text: z.string() })),
  faq: z.array(z.object({ question: z.string(), answer: z.string() })),
});

/**
 * A licence tier a kit is sold in: Solo (the kit's own id and price, one developer) first, then
 * the kit's tiers, each purchasable under its own id (the id the cart stores).
 */
export const KitLicenceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  seats: z.number().int(),
  price: z.number(),
  paddle_id: z.string(),
});

/** `POST /api/product/{sefid}`: the kit's fields and its details; a single kit lists its licence tiers. */
export const KitProductSchema = KitSummarySchema.extend({
  documentation: z.boolean(),
  details: KitDetailsSchema,
  licenses: z.array(KitLicenceSchema).optional(),
});

/** `GET /api/docs/{sefid}`: the kit's documentation pages (sanitised HTML). */
export const KitDocsSchema = z.object({
  sef_id: z.string(),
  title: z.string(),
  pages: z.array(z.object({ slug: z.string(), title: z.string(), html: z.string() })),
});

export const SefIdParamsSchema = z.object({
  sefid: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Unknown kit')
    .max(100, 'Unknown kit'),
});

export type KitSummary = z.infer<typeof KitSummarySchema>;
export type IncludedKit = NonNullable<KitSummary['includes']>[number];
export type KitProduct = z.infer<typeof KitProductSchema>;
export type KitDocs = z.infer<typeof KitDocsSchema>;
export type KitLicence = z.infer<typeof KitLicenceSchema>;
