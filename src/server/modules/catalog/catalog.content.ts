import { z } from 'zod';
import { ICON_NAMES } from '../../../common/constants.ts';
import { parseDollarsToCents } from '../../../common/money.ts';

/**
 * The on-disk format of one kit, `content/kits/<sef_id>/`:
 *
 * - `kit.json`      metadata (KitFileSchema); a bundle lists its kits in `includes`
 * - `details.json`  the product page (DetailsFileSchema)
 * - `setup.md`      setup guide; must hold `## Quick Start` and `## How to Modify`
 * - `docs/*.md`     optional documentation pages, ordered by file name, each starting with `# Title`
 * - `screenshots/`  images named in details.json (made by `npm run screenshots`)
 * - `source/`       the files of the downloadable archive
 * - `CHANGELOG.md`  `## <version> - <YYYY-MM-DD>` sections, newest first; the top one is kit.json's version
 */

const text = (max: number) => z.string().trim().min(1).max(max);
const dollars = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const cents = parseDollarsToCents(String(value));
  if (cents === null || cents <= 0) {
    ctx.addIssue({ code: 'custom', message: 'must be a positive USD amount like "49.00"' });
    return z.NEVER;
  }
  return cents;
});

export const SEF_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const PADDLE_PRICE_ID = z.string().regex(/^pri_[a-z0-9]{10,40}$/, 'must be a Paddle price id like "pri_01h..."');

/** One licence tier of `licenses` in kit.json (docs/catalog.md). */
const LicenceTierSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,30}$/, 'must be a short lowercase id like "team"')
      .refine((id) => id !== 'solo', 'solo is the kit itself (its own price)'),
    name: text(40),
    seats: z.number().int().min(2, 'a tier beyond Solo has at least 2 seats').max(1000),
    price: dollars,
    paddle_price_id: PADDLE_PRICE_ID,
    /** Machines each licence key of the tier may activate (the licence API). */
    activation_limit: z.number().int().min(1).max(1000).default(3),
  })
  .strict();

export const KitFileSchema = z
  .object({
    title: text(120),
    spot: text(300),
    position: z.number().int().min(0),
    price: dollars,
    discounted_from: dollars.optional(),
    paddle_price_id: PADDLE_PRICE_ID,
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'must be a semantic version like "1.2.0"'),
    features: z.array(text(200)).min(3).max(30),
    /** Delivered also as a private GitHub repository: buyers are invited to it (docs/github.md). */
    github_repository: z
      .string()
      .regex(
        /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/,
        'must be a GitHub repository like "owner/name"',
      )
      .optional(),
    /** A bundle: the sef_ids of the kits buying it grants (each a single kit of this catalog). */
    includes: z
      .array(z.string().regex(SEF_ID_PATTERN, 'must be a kit folder name'))
      .min(2, 'a bundle includes at least 2 kits')
      .max(50)
      .optional(),
    /**
     * A bundle's, or a higher licence tier's, lowest upgrade price, whatever its buyer paid for its
     * kits (or the kit's Solo licence) before.
     */
    upgrade_floor: dollars.optional(),
    /** Licence tiers beyond Solo (the kit's own price, one developer), each sold under its own id. */
    licenses: z.array(LicenceTierSchema).min(1).max(5).optional(),
  })
  .strict()
  .refine(
    (kit) =>
      kit.upgrade_floor === undefined ||
      ((kit.includes || kit.licenses) &&
        kit.upgrade_floor <= Math.max(kit.price, ...(kit.licenses ?? []).map((l) => l.price))),
    {
      message: 'only a bundle (with includes) or a kit with licenses has one, at most its price',
      path: ['upgrade_floor'],
    },
  )
  .refine((kit) => !(kit.includes && kit.licenses), {
    message: 'a bundle has no licence tiers',
    path: ['licenses'],
  })
  .refine((kit) => new Set((kit.licenses ?? []).map((l) => l.id)).size === (kit.licenses ?? []).length, {
    message: 'each tier needs its own id',
    path: ['licenses'],
  })
  .refine((kit) => (kit.licenses ?? []).every((l) => l.price > kit.price), {
    message: 'a tier costs more than the kit (its Solo licence)',
    path: ['licenses'],
  })
  .refine((kit) => kit.discounted_from === undefined || kit.discounted_from > kit.price, {
    message: 'must be higher than price',
    path: ['discounted_from'],
  });

const icon = z.enum(ICON_NAMES);

export const DetailsFileSchema = z
  .object({
    demo: z.object({ url: z.url({ protocol: /^https$/ }) }).strict(),
    headerCards: z
      .array(z.object({ icon, title: text(80), text: text(300) }).strict())
      .min(1)
      .max(6),
    video: z
      .object({ id: z.string().regex(/^[A-Za-z0-9_-]{6,20}$/, 'must be a YouTube video id'), text: text(300) })
      .strict()
      .optional(),
    heading: z
      .object({
        title: text(160),
        lead: text(600),
        /** HTML strings (sanitised at import) */
        features: z.array(text(600)).min(1).max(20),
        /** HTML (sanitised at import) */
        text: text(4000),
      })
      .strict(),
    screenshotsTitle: text(160),
    screenshots: z
      .array(
        z
          .object({
            file: z.string().regex(/^[a-z0-9-]+\.(jpg|png|webp)$/, 'must be a file name in screenshots/'),
            alt: text(200),
            title: text(120),
          })
          .strict(),
      )
      .min(1)
      .max(12),
    included: z.array(text(200)).min(1).max(40),
    why: z
      .array(z.object({ icon, text: text(300) }).strict())
      .min(1)
      .max(12),
    faq: z
      .array(z.object({ question: text(300), answer: text(2000) }).strict())
      .min(1)
      .max(30),
  })
  .strict();

export type KitFile = z.output<typeof KitFileSchema>;
export type DetailsFile = z.output<typeof DetailsFileSchema>;
