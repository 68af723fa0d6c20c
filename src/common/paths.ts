/**
 * The screens the single-page app serves. The server answers 200 with the page shell for these
 * and 404 (with the same shell, which then shows the not-found page) for anything else, so the
 * two sides can never disagree about what exists. A `private` screen means something only to a
 * visitor's own session (the shell marks it `noindex`); search engines may index the others.
 */
const SCREENS = {
  '/': 'indexed',
  '/product/:sefId': 'indexed',
  '/docs/:sefId': 'indexed',
  '/docs/:sefId/:page': 'indexed',
  '/cart': 'private',
  '/checkout': 'private',
  '/login': 'indexed',
  '/register': 'indexed',
  '/forgot-password': 'private',
  '/reset-password': 'private',
  '/email/verify': 'private',
  '/email/change': 'private',
  '/exit': 'private',
  '/user-panel': 'private',
  '/user-panel/item/:sefId': 'private',
  '/about': 'indexed',
  '/contact': 'indexed',
  '/support': 'indexed',
  '/privacy-policy': 'indexed',
  '/terms-and-conditions': 'indexed',
  '/refund-policy': 'indexed',
  '/cookie-policy': 'indexed',
  '/licence': 'indexed',
} as const;

export type ScreenPattern = keyof typeof SCREENS;
export const SCREEN_PATTERNS = Object.keys(SCREENS) as ScreenPattern[];
/** Screens search engines may index: all but the private ones. */
export const INDEXABLE_SCREENS = new Set<string>(SCREEN_PATTERNS.filter((pattern) => SCREENS[pattern] === 'indexed'));

/** '/' -> '', '/shop/' -> '/shop' */
export function normaliseBasePath(basePath: string): string {
  const trimmed = `/${basePath.replace(/^\/+|\/+$/g, '')}`;
  return trimmed === '/' ? '' : trimmed;
}

// Pure: the browser bundle, which never matches screens this way, leaves it out.
const compiled = /* @__PURE__ */ SCREEN_PATTERNS.map((pattern) => {
  const names: string[] = [];
  const source = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern, names, regex: new RegExp(`^${source}/?$`) };
});

export type ScreenMatch = { pattern: ScreenPattern; params: Record<string, string> };

/** Matches a route path (without the base path) against the known screens. */
export function matchScreen(routePath: string): ScreenMatch | null {
  for (const { pattern, names, regex } of compiled) {
    const found = regex.exec(routePath);
    if (!found) continue;
    const params: Record<string, string> = {};
    try {
      names.forEach((name, i) => {
        params[name] = decodeURIComponent(found[i + 1] ?? '');
      });
    } catch {
      return null; // malformed percent-encoding: no screen has such a path
    }
    return { pattern, params };
  }
  return null;
}

/** A path segment as RFC 3986 spells it: percent-encoded but where a segment may hold the character itself. */
const pathSegment = (value: string) =>
  encodeURIComponent(value).replace(/%(?:24|26|2B|2C|3A|3B|3D|40)/g, (encoded) => decodeURIComponent(encoded));

/**
 * The one spelling of a matched screen's path (without the base path): no trailing slash, and each
 * parameter percent-encoded only where it must be. Every other spelling of it (`/product/%61-kit`,
 * `/about/`) is the same screen under another name.
 */
export function canonicalScreenPath({ pattern, params }: ScreenMatch): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => pathSegment(params[name] ?? ''));
}
