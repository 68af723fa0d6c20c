import type { PageQuery } from '../../common/page-data.ts';
import type { Screen } from '../../common/screens.ts';

/** A page's head as the page shell writes it: title, description, canonical, Open Graph and JSON-LD. */
export type PageHead = {
  title: string;
  description: string;
  /** Null for a page search engines should not index (`noindex`). */
  canonical: string | null;
  image?: string;
  jsonLd?: object;
  /** Open Graph's `og:type` (`website` when absent). */
  type?: string;
  /** Trusted head HTML (a preload, a server-rendered page's own tags). */
  extra?: string;
};

/**
 * What a feature answers for a screen whose head it builds (`head` in screens.ts): the head, or
 * null when what the path names does not exist (the shell answers 404, and the screen shows its
 * own not-found page); and the answers the screen renders with, in either case.
 */
export type ScreenHead = { head: PageHead | null; queries: PageQuery[] };

/** A screen's head builder: the path's parameters and its canonical spelling (without the base path). */
export type ScreenHeadBuilder = (screen: { params: Record<string, string>; path: string }) => Promise<ScreenHead>;

/** The head builder of each kind of screen that has one, handed to the page shell by app.ts. */
export type ScreenHeadBuilders = Record<NonNullable<Screen['head']>, ScreenHeadBuilder>;
