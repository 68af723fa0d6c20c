import { z } from 'zod';
import { ICON_NAMES } from '../constants.ts';
import { parseDollarsToCents } from '../money.ts';

/**
 * The owner's kit editor (`/admin/kits/{sef_id}`, `GET`/`PUT /api/admin/kits/{sef_id}`, `POST
 * /api/admin/kits`): one schema that checks the form in the browser and the route on the server,
 * with the limits of the catalog's content format (catalog.content.ts), so that whatever the
 * console saves exports back to content that imports.
 */

const text = (max: number) =>
  z.string({ error: 'Required.' }).trim().min(1, 'Required.').max(max, `At most ${max} characters.`);

const list = <T extends z.ZodType>(item: T, min: number, max: number, what: string) =>
  z
    .array(item)
    .min(min, min === 1 ? `Add at least one ${what}.` : `Add at least ${min} ${what}s.`)
    .max(max, `At most ${max} ${what}s.`);

const Dollars = z
  .number({ error: 'Enter an amount in USD.' })
  .positive('Must be above 0.')
  .max(1_000_000, 'At most 1000000.')
  .refine((v) => parseDollarsToCents(String(v)) !== null, 'Dollars with at most 2 decimals.');

export const SEF_ID_TEXT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SefId = z
  .string({ error: 'Required.' })
  .trim()
  .min(1, 'Required.')
  .max(100, 'At most 100 characters.')
  .regex(SEF_ID_TEXT, 'Lowercase letters, digits and single dashes, like "next-saas-starter".');

export const PaddlePriceId = z
  .string({ error: 'Required.' })
  .trim()
  .regex(/^pri_[a-z0-9]{10,40}$/, 'A Paddle price id like "pri_01h...".');

export const GithubRepository = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/, 'A GitHub repository like "owner/name".');

const icon = z.enum(ICON_NAMES, { error: 'Choose an icon.' });

/**
 * A screenshot stored by `POST /api/admin/kits/{sef_id}/screenshots` or an import: a content-addressed
 * key under the kit's folder (`<16 hex>-<file name>`), the form the export writes back as a file.
 */
export const SCREENSHOT_URL = /^media\/screenshots\/[a-z0-9-]+\/[0-9a-f]{16}-[a-z0-9-]+\.(jpg|png|webp)$/;
const ScreenshotUrl = z.string().regex(SCREENSHOT_URL, 'Upload the image again.');

export const SETUP_SECTIONS = ['Quick Start', 'How to Modify'] as const;

const SetupMarkdown = z
  .string({ error: 'Required.' })
  .max(100_000, 'At most 100000 characters.')
  .superRefine((source, ctx) => {
    const missing = SETUP_SECTIONS.filter((s) => !new RegExp(`^## ${s}\\s*$`, 'm').test(source));
    if (missing.length > 0)
      ctx.addIssue({ code: 'custom', message: `Needs ${missing.map((s) => `a "## ${s}"`).join(' and ')} section.` });
  });

const DocPage = z.object({
  slug: z
    .string({ error: 'Required.' })
    .trim()
    .min(1, 'Required.')
    .max(80, 'At most 80 characters.')
    .regex(SEF_ID_TEXT, 'Lowercase letters, digits and dashes (the page’s address).'),
  markdown: z
    .string({ error: 'Required.' })
    .max(200_000, 'At most 200000 characters.')
    .regex(/^# \S.*$/m, 'Must start with a "# Title" line.'),
});

/** The product page's parts, as the store shows them (`details` of `POST /api/product/{sef_id}`). */
const Details = z.object({
  demo: z.object({ url: z.url({ protocol: /^https$/, error: 'An https:// address.' }) }),
  headerCards: list(z.object({ icon, title: text(80), text: text(300) }), 1, 6, 'header card'),
  video: z
    .object({
      id: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_-]{6,20}$/, 'A YouTube video id like "dQw4w9WgXcQ".'),
      text: text(300),
    })
    .nullable(),
  heading: z.object({
    title: text(160),
    lead: text(600),
    /** HTML (sanitised by the server). */
    features: list(text(600), 1, 20, 'feature'),
    /** HTML (sanitised by the server). */
    text: text(4000),
  }),
  screenshotsTitle: text(160),
  screenshots: list(
    z.object({
      url: ScreenshotUrl,
      thumbnail_url: ScreenshotUrl,
      alt: text(200),
      /** Shown under the enlarged image; the alt text when left empty. */
      title: z.string().trim().max(120, 'At most 120 characters.').default(''),
    }),
    1,
    12,
    'screenshot',
  ),
  included: list(text(200), 1, 40, 'item'),
  why: list(z.object({ icon, text: text(300) }), 1, 12, 'reason'),
  faq: list(z.object({ question: text(300), answer: text(2000) }), 1, 30, 'question'),
});

export const KitEditSchema = z
  .object({
    title: text(120),
    spot: text(300),
    price: Dollars,
    discounted_from: Dollars.nullable(),
    position: z.number({ error: 'A whole number.' }).int('A whole number.').min(0, 'At least 0.').max(100_000),
    paddle_price_id: PaddlePriceId,
    features: list(text(200), 3, 30, 'feature'),
    details: Details,
    setup_markdown: SetupMarkdown,
    docs: z.array(DocPage).max(50, 'At most 50 pages.'),
    /** Only when GitHub delivery is configured (the server refuses one otherwise). */
    github_repository: GithubRepository.nullable(),
    hidden: z.boolean(),
    /** The `updated_at` the form was opened with: a save over someone else's newer one is refused. */
    updated_at: z.string().max(40).optional(),
  })
  .superRefine((kit, ctx) => {
    if (kit.discounted_from !== null && kit.discounted_from <= kit.price)
      ctx.addIssue({ code: 'custom', path: ['discounted_from'], message: 'Must be higher than the price.' });
    const seen = new Set<string>();
    kit.docs.forEach((page, i) => {
      if (seen.has(page.slug))
        ctx.addIssue({ code: 'custom', path: ['docs', i, 'slug'], message: 'Another page has this address.' });
      seen.add(page.slug);
    });
  });

export type KitEdit = z.input<typeof KitEditSchema>;
export type KitEditInput = z.output<typeof KitEditSchema>;

/** `New Kit`: what a kit needs to exist (it starts hidden; the editor then completes its page). */
export const KitCreateSchema = z.object({
  // `/admin/kits/new` is the New Kit form itself.
  sef_id: SefId.refine((sef) => sef !== 'new', 'This address is reserved.'),
  title: text(120),
  spot: text(300),
  price: Dollars,
  paddle_price_id: PaddlePriceId,
});
export type KitCreate = z.input<typeof KitCreateSchema>;
export type KitCreateInput = z.output<typeof KitCreateSchema>;

/** `GET /api/admin/kits/{sef_id}`: the kit as the editor edits it, and what the form needs to know. */
export type EditableKit = KitEdit & {
  id: number;
  sef_id: string;
  version: string;
  /** Whether the catalog content still has it (a kit created in the console never had). */
  in_content: boolean;
  updated_at: string;
  /** When the console last changed it (an import then leaves it alone unless forced). */
  console_changed_at: string | null;
  /** Whether GitHub delivery is configured: the repository field shows only then. */
  github_delivery: boolean;
  /** With Paddle, a new price needs a new Paddle price id (the webhook checks the amount paid). */
  paddle: boolean;
};

/** A 422 from the editor: the first problem as the message, and every field's message by its path. */
export type KitEditErrors = { message: string; fields: Record<string, string> };

/** The field messages of a failed parse, by dotted path (`details.faq.0.answer`), the first per field. */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '(form)';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Screenshot uploads: what the server takes (checked by magic bytes, not only by the type sent). */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** The answer to an upload: the stored image, to put in the form's screenshots. */
export type UploadedScreenshot = { url: string; thumbnail_url: string };
