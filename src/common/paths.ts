import { SCREEN_PATTERNS, SCREENS, type ScreenPattern } from './screens.ts';

export { SCREEN_PATTERNS, type ScreenPattern };
/** Screens search engines may index: all but the private ones (screens.ts). */
export const INDEXABLE_SCREENS = new Set<string>(
  SCREEN_PATTERNS.filter((pattern) => SCREENS[pattern].access === 'indexed'),
);

/** '/' -> '', '/shop/' -> '/shop' */
export function normaliseBasePath(basePath: string): string {
  const trimmed = `/${basePath.replace(/^\/+|\/+$/g, '')}`;
  return trimmed === '/' ? '' : trimmed;
}

// Compiled once, where first needed: pure, so a bundle that never matches screens leaves it out.
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
