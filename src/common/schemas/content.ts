import { z } from 'zod';
import { DAY } from '../dates.ts';

/** The shop's text pages, each a Markdown file `content/legal/<name>.md` the owner edits. */
export const CONTENT_PAGE_NAMES = [
  'about',
  'privacy-policy',
  'terms-and-conditions',
  'refund-policy',
  'cookie-policy',
  'licence',
] as const;

export type ContentPageName = (typeof CONTENT_PAGE_NAMES)[number];

/**
 * `GET /api/content/:name`: a text page rendered by the server. `html` is sanitised: its lead
 * (what comes before the first section), then one `<section>` per `##` heading, each opening with
 * its `<h2 id>`. `effective_date` is the day a legal text took effect, null for the about page.
 */
export const contentPageSchema = z.object({
  name: z.enum(CONTENT_PAGE_NAMES),
  title: z.string().min(1),
  html: z.string(),
  effective_date: z.string().regex(DAY).nullable(),
});

export type ContentPage = z.infer<typeof contentPageSchema>;
