import type { ContentPageName } from './schemas/content.ts';

/** A screen of the single-page app, as the router (src/web/app/routes.tsx) and the page shell read it. */
export type Screen = {
  /**
   * `private`: the screen means something only to a visitor's own session (the shell marks it
   * `noindex`); `indexed`: search engines may index it.
   */
  access: 'indexed' | 'private';
  /**
   * The screen's code, a source file under src/web exporting the component named after the file
   * (`product-page.tsx` exports `ProductPage`). The router loads it as its own chunk; the shell
   * preloads it for a screen it renders.
   */
  module: string;
  /** A layout the screen shows in instead of the shop's header and footer (a module as above). */
  layout?: string;
  /** The screen ships in the first load (no chunk of its own to load or preload). */
  inEntry?: true;
  /** The server renders the screen into the page (a public screen the same for every visitor). */
  rendered?: true;
  /** Its title when fixed: the page's head and `document.title`. */
  title?: string;
  /** Who builds its head instead, and the answers it renders with (a feature the server composes). */
  head?: 'home' | 'product' | 'docs';
  /** The text it shows (content/legal/<text>.md), which the server renders it with. */
  text?: ContentPageName;
  /** `document.body.dataset.pageType` on the screen, for styles and analytics. */
  pageType?: 'cart' | 'checkout' | 'login' | 'product';
};

const AUTH_LAYOUT = 'features/accounts/auth-layout.tsx';

/**
 * Every screen of the single-page app. The server answers 200 with the page shell for these paths
 * and 404 (with the same shell, which then shows the not-found page) for anything else, and the
 * router's routes are these, so the two sides can never disagree about what exists. Adding a
 * screen is an entry here and its component.
 */
export const SCREENS = {
  '/': { access: 'indexed', module: 'features/catalog/home-page.tsx', inEntry: true, rendered: true, head: 'home' },
  '/product/:sefId': {
    access: 'indexed',
    module: 'features/catalog/product-page.tsx',
    rendered: true,
    head: 'product',
    pageType: 'product',
  },
  '/docs/:sefId': { access: 'indexed', module: 'features/catalog/docs-page.tsx', rendered: true, head: 'docs' },
  '/docs/:sefId/:page': { access: 'indexed', module: 'features/catalog/docs-page.tsx', rendered: true, head: 'docs' },
  '/cart': {
    access: 'private',
    module: 'features/cart/cart-page.tsx',
    rendered: true,
    title: 'Cart — Kitshop',
    pageType: 'cart',
  },
  '/checkout': {
    access: 'private',
    module: 'features/checkout/checkout-page.tsx',
    title: 'Make Payment — Kitshop',
    pageType: 'checkout',
  },
  '/login': {
    access: 'indexed',
    module: 'features/accounts/login-page.tsx',
    layout: AUTH_LAYOUT,
    rendered: true,
    title: 'Sign In — Kitshop',
    pageType: 'login',
  },
  '/register': {
    access: 'indexed',
    module: 'features/accounts/register-page.tsx',
    layout: AUTH_LAYOUT,
    rendered: true,
    title: 'Sign Up — Kitshop',
  },
  '/forgot-password': {
    access: 'private',
    module: 'features/accounts/forgot-password-page.tsx',
    title: 'Forgot Password — Kitshop',
  },
  '/reset-password': {
    access: 'private',
    module: 'features/accounts/reset-password-page.tsx',
    title: 'Reset Password — Kitshop',
  },
  '/email/verify': {
    access: 'private',
    module: 'features/accounts/verify-email-page.tsx',
    title: 'Verify Email — Kitshop',
  },
  '/email/change': {
    access: 'private',
    module: 'features/accounts/email-change-page.tsx',
    title: 'Confirm New Email — Kitshop',
  },
  '/exit': { access: 'private', module: 'features/accounts/exit-page.tsx', title: 'Signing Out — Kitshop' },
  '/user-panel': { access: 'private', module: 'app/user-panel-page.tsx', title: 'User Panel — Kitshop' },
  // Its title names the kit once the kit is known; this one is the page's head.
  '/user-panel/item/:sefId': {
    access: 'private',
    module: 'features/library/item-page.tsx',
    title: 'Setup Guide — Kitshop',
  },
  // A Team licence's invitation link (mailed): the token is the secret; signing in brings one back.
  '/seat-invitation/:token': {
    access: 'private',
    module: 'features/library/seat-invitation-page.tsx',
    title: 'Seat Invitation — Kitshop',
  },
  '/about': {
    access: 'indexed',
    module: 'features/content/about-page.tsx',
    rendered: true,
    title: 'About — Kitshop',
    text: 'about',
  },
  // One page for both: it reads the path for its title and heading.
  '/contact': {
    access: 'indexed',
    module: 'features/messages/contact-page.tsx',
    rendered: true,
    title: 'Contact — Kitshop',
  },
  '/support': {
    access: 'indexed',
    module: 'features/messages/contact-page.tsx',
    rendered: true,
    title: 'Support — Kitshop',
  },
  '/privacy-policy': {
    access: 'indexed',
    module: 'features/content/privacy-policy-page.tsx',
    rendered: true,
    title: 'Privacy Policy — Kitshop',
    text: 'privacy-policy',
  },
  '/terms-and-conditions': {
    access: 'indexed',
    module: 'features/content/terms-page.tsx',
    rendered: true,
    title: 'Terms and Conditions — Kitshop',
    text: 'terms-and-conditions',
  },
  '/refund-policy': {
    access: 'indexed',
    module: 'features/content/refund-policy-page.tsx',
    rendered: true,
    title: 'Refund Policy — Kitshop',
    text: 'refund-policy',
  },
  '/cookie-policy': {
    access: 'indexed',
    module: 'features/content/cookie-policy-page.tsx',
    rendered: true,
    title: 'Cookie Policy — Kitshop',
    text: 'cookie-policy',
  },
  '/licence': {
    access: 'indexed',
    module: 'features/library/licence-page.tsx',
    rendered: true,
    title: 'Licence Agreement — Kitshop',
    text: 'licence',
  },
} as const satisfies Record<string, Screen>;

export type ScreenPattern = keyof typeof SCREENS;
export const SCREEN_PATTERNS = Object.keys(SCREENS) as ScreenPattern[];

/** The screen of a pattern, with every field of `Screen` to read (absent ones undefined). */
export const screenOf = (pattern: ScreenPattern): Screen => SCREENS[pattern];

/** The component a screen's module exports: `features/catalog/product-page.tsx` -> `ProductPage`. */
export const componentName = (module: string): string =>
  (module.split('/').pop() ?? '')
    .replace(/\.tsx$/, '')
    .replace(/(?:^|-)([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The modules the page of a server-rendered screen preloads (its layout's and its own, unless it is
 * in the first load), so that the browser hydrates without waiting for the entry script to ask for
 * them; undefined for a screen the browser renders.
 */
export function renderedModules(pattern: ScreenPattern): readonly string[] | undefined {
  const screen = screenOf(pattern);
  if (!screen.rendered) return undefined;
  if (screen.inEntry) return [];
  return screen.layout ? [screen.layout, screen.module] : [screen.module];
}

/**
 * The owner console's screens (under /admin, one lazy chunk of their own; decision: buyers never load
 * owner code). The console matches a path against these (`:id` is a record's id) and the e2e
 * accessibility scan visits each, so a new screen is an entry here and its component in the console.
 */
export const OWNER_SCREENS = {
  '/admin': { title: 'Dashboard' },
  '/admin/orders': { title: 'Orders' },
  '/admin/orders/:id': { title: 'Order' },
  '/admin/customers': { title: 'Customers' },
  '/admin/customers/:id': { title: 'Customer' },
  '/admin/kits': { title: 'Kits' },
  '/admin/kits/new': { title: 'New Kit' },
  '/admin/kits/:sefId': { title: 'Kit' },
  '/admin/discounts': { title: 'Discounts' },
  '/admin/messages': { title: 'Messages' },
  '/admin/subscribers': { title: 'Subscribers' },
  '/admin/activity': { title: 'Activity' },
} as const satisfies Record<string, { title: string }>;

export type OwnerScreenPattern = keyof typeof OWNER_SCREENS;
export const OWNER_SCREEN_PATTERNS = Object.keys(OWNER_SCREENS) as OwnerScreenPattern[];

/** Whether a path (without the base path) is this console screen's: `:name` takes one segment. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const source = pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`).test(pathname);
}
