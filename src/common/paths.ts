/**
 * The screens the single-page app serves. The server answers 200 with the page shell for these
 * and 404 (with the same shell, which then shows the not-found page) for anything else, so the
 * two sides can never disagree about what exists.
 */
export const SCREEN_PATTERNS = [
  '/',
  '/product/:sefId',
  '/docs/:sefId',
  '/docs/:sefId/:page',
  '/cart',
  '/checkout',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/email/verify',
  '/exit',
  '/user-panel',
  '/user-panel/item/:sefId',
  '/about',
  '/contact',
  '/support',
  '/privacy-policy',
  '/terms-and-conditions',
  '/refund-policy',
  '/cookie-policy',
  '/licence',
] as const;

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

export type ScreenMatch = { pattern: (typeof SCREEN_PATTERNS)[number]; params: Record<string, string> };

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
