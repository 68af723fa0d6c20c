/** Titles and descriptions shared by the server's page shell (SEO) and the app (document.title). */
export const SITE_NAME = 'Kitshop';
export const HOME_TITLE = 'Kitshop — Production-ready starter kits for developers';
export const HOME_DESCRIPTION =
  'Kitshop sells downloadable starter kits for developers: full source code with a polished UI, documentation, setup guides and a live demo. Ship your next product in days, not months.';
export const NOT_FOUND_TITLE = 'Page Not Found — Kitshop';

export const docsTitle = (kitTitle: string) => `${kitTitle} Documentation — Kitshop`;
/** A purchased kit's setup guide (/user-panel/item/:sefId) once its title is known. */
export const setupGuideTitle = (kitTitle: string) => `${kitTitle} — Setup Guide — Kitshop`;

/** Titles of the screens without a title of their own in the data (server head and document.title). */
export const SCREEN_TITLES: Record<string, string> = {
  '/cart': 'Cart — Kitshop',
  '/checkout': 'Make Payment — Kitshop',
  '/login': 'Sign In — Kitshop',
  '/register': 'Sign Up — Kitshop',
  '/forgot-password': 'Forgot Password — Kitshop',
  '/reset-password': 'Reset Password — Kitshop',
  '/email/verify': 'Verify Email — Kitshop',
  '/email/change': 'Confirm New Email — Kitshop',
  '/exit': 'Signing Out — Kitshop',
  '/user-panel': 'User Panel — Kitshop',
  '/about': 'About — Kitshop',
  '/contact': 'Contact — Kitshop',
  '/support': 'Support — Kitshop',
  '/privacy-policy': 'Privacy Policy — Kitshop',
  '/terms-and-conditions': 'Terms and Conditions — Kitshop',
  '/refund-policy': 'Refund Policy — Kitshop',
  '/cookie-policy': 'Cookie Policy — Kitshop',
  '/licence': 'Licence Agreement — Kitshop',
  '/user-panel/item/:sefId': 'Setup Guide — Kitshop',
};
