const PAGE_TYPES: [RegExp, string][] = [
  [/^\/cart\/?$/, 'cart'],
  [/^\/checkout\/?$/, 'checkout'],
  [/^\/login\/?$/, 'login'],
  [/^\/product\/[^/]+\/?$/, 'product'],
];

/** `document.body.dataset.pageType`: cart, checkout, login or product on those routes, absent elsewhere. */
export function pageTypeFor(routePath: string): string | undefined {
  return PAGE_TYPES.find(([pattern]) => pattern.test(routePath))?.[1];
}
