/**
 * Rules for the blog teaser fragment (GET /blog/latest.php), kept free of the DOM so they can be
 * tested in Node. The component sanitises with the shop's one sanitiser (src/common/html-sanitizer.ts).
 */

/**
 * True when an answer body is an HTML fragment worth showing: not empty, and not a whole page (a
 * server without the blog may answer with its own HTML page or an error document).
 */
export function isTeaserFragment(body: string): boolean {
  const text = body.trim();
  if (text === '') return false;
  return !/^<!doctype|<html[\s>]|<body[\s>]/i.test(text);
}

/**
 * Only same-origin pictures: the page's Content-Security-Policy blocks others, and the blocked
 * request would show as a console error.
 */
export function isSameOrigin(url: string, pageUrl: string): boolean {
  try {
    return new URL(url, pageUrl).origin === new URL(pageUrl).origin;
  } catch {
    return false;
  }
}
