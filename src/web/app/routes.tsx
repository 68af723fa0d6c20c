import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject, useRoutes } from 'react-router';
import { NotFoundPage } from '../components/not-found-page.tsx';
import { HomePage } from '../features/catalog/home-page.tsx';
import { type LazyScreen, lazyScreen } from '../lib/lazy-screen.tsx';
import { RootLayout } from './layouts/root-layout.tsx';

/** A route whose screen is a lazy chunk: its element, and its code's preload for `preloadScreens`. */
function screen(load: () => Promise<ComponentType>): Pick<RouteObject, 'element' | 'handle'> {
  const Screen: LazyScreen = lazyScreen(load);
  return { element: <Screen />, handle: { preload: Screen.preload } };
}

/**
 * Every screen. The home page ships in the first load; every other screen is its own chunk.
 * Keep in step with SCREEN_PATTERNS in src/common/paths.ts (the server's list of what exists).
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <HomePage /> },
      {
        path: 'product/:sefId',
        ...screen(() => import('../features/catalog/product-page.tsx').then((m) => m.ProductPage)),
      },
      {
        path: 'docs/:sefId/:page?',
        ...screen(() => import('../features/catalog/docs-page.tsx').then((m) => m.DocsPage)),
      },
      {
        path: 'cart',
        ...screen(() => import('../features/cart/cart-page.tsx').then((m) => m.CartPage)),
      },
      {
        path: 'checkout',
        ...screen(() => import('../features/checkout/checkout-page.tsx').then((m) => m.CheckoutPage)),
      },
      {
        path: 'forgot-password',
        ...screen(() => import('../features/accounts/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage)),
      },
      {
        path: 'reset-password',
        ...screen(() => import('../features/accounts/reset-password-page.tsx').then((m) => m.ResetPasswordPage)),
      },
      {
        path: 'email/verify',
        ...screen(() => import('../features/accounts/verify-email-page.tsx').then((m) => m.VerifyEmailPage)),
      },
      {
        path: 'email/change',
        ...screen(() => import('../features/accounts/email-change-page.tsx').then((m) => m.EmailChangePage)),
      },
      {
        path: 'exit',
        ...screen(() => import('../features/accounts/exit-page.tsx').then((m) => m.ExitPage)),
      },
      {
        path: 'user-panel',
        ...screen(() => import('./user-panel-page.tsx').then((m) => m.UserPanelPage)),
      },
      {
        path: 'user-panel/item/:sefId',
        ...screen(() => import('../features/library/item-page.tsx').then((m) => m.ItemPage)),
      },
      {
        path: 'about',
        ...screen(() => import('../features/content/about-page.tsx').then((m) => m.AboutPage)),
      },
      // One page for both: it reads the path for its title and heading.
      {
        path: 'contact',
        ...screen(() => import('../features/messages/contact-page.tsx').then((m) => m.ContactPage)),
      },
      {
        path: 'support',
        ...screen(() => import('../features/messages/contact-page.tsx').then((m) => m.ContactPage)),
      },
      {
        path: 'privacy-policy',
        ...screen(() => import('../features/content/privacy-policy-page.tsx').then((m) => m.PrivacyPolicyPage)),
      },
      {
        path: 'terms-and-conditions',
        ...screen(() => import('../features/content/terms-page.tsx').then((m) => m.TermsPage)),
      },
      {
        path: 'refund-policy',
        ...screen(() => import('../features/content/refund-policy-page.tsx').then((m) => m.RefundPolicyPage)),
      },
      {
        path: 'cookie-policy',
        ...screen(() => import('../features/content/cookie-policy-page.tsx').then((m) => m.CookiePolicyPage)),
      },
      {
        path: 'licence',
        ...screen(() => import('../features/library/licence-page.tsx').then((m) => m.LicencePage)),
      },
      // The blog: pages the server renders (GET /blog, /blog/:slug), shown in this layout.
      {
        path: 'blog/*',
        ...screen(() => import('../features/content/blog-page.tsx').then((m) => m.BlogPage)),
      },
      // The owner console (issue 11): its route's module is all the first load knows of it.
      { path: 'admin/*', ...screen(() => import('../features/admin/admin-route.tsx').then((m) => m.AdminRoute)) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // Sign in and sign up: a centred card without the shop's header and footer.
    ...screen(() => import('../features/accounts/auth-layout.tsx').then((m) => m.AuthLayout)),
    children: [
      {
        path: 'login',
        ...screen(() => import('../features/accounts/login-page.tsx').then((m) => m.LoginPage)),
      },
      {
        path: 'register',
        ...screen(() => import('../features/accounts/register-page.tsx').then((m) => m.RegisterPage)),
      },
    ],
  },
];

/** The screens at `pathname` (base path included) with their code loaded: before hydrating or rendering one. */
export async function preloadScreens(pathname: string, basename: string): Promise<void> {
  const matches = matchRoutes(routes, pathname, basename) ?? [];
  await Promise.all(
    matches.map((match) => (match.route.handle as { preload?: () => Promise<void> } | undefined)?.preload?.()),
  );
}

/** The app's screens for the router around them (the browser's, or the server's static one). */
export function AppRoutes() {
  return useRoutes(routes);
}
