import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../components/not-found-page.tsx';
import { HomePage } from '../features/catalog/home-page.tsx';
import { clientConfig } from '../lib/initial-data.ts';
import { serverPage } from '../lib/server-page.ts';
import { RootLayout } from './layouts/root-layout.tsx';

/**
 * Shown while the first screen's code arrives: the page the server rendered (a blog page, which
 * stays on screen until the app shows it in its layout), or nothing (the app's screens are not
 * rendered by the server).
 */
function FirstLoad() {
  return serverPage ? (
    <div style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: serverPage.root }} />
  ) : null;
}

/**
 * Every screen. The home page ships in the first load; every other screen is its own chunk.
 * Keep in step with SCREEN_PATTERNS in src/common/paths.ts (the server's list of what exists).
 */
export const router = createBrowserRouter(
  [
    {
      Component: RootLayout,
      HydrateFallback: FirstLoad,
      children: [
        { index: true, Component: HomePage },
        {
          path: 'product/:sefId',
          lazy: () => import('../features/catalog/product-page.tsx').then((m) => ({ Component: m.ProductPage })),
        },
        {
          path: 'docs/:sefId/:page?',
          lazy: () => import('../features/catalog/docs-page.tsx').then((m) => ({ Component: m.DocsPage })),
        },
        {
          path: 'cart',
          lazy: () => import('../features/cart/cart-page.tsx').then((m) => ({ Component: m.CartPage })),
        },
        {
          path: 'checkout',
          lazy: () => import('../features/checkout/checkout-page.tsx').then((m) => ({ Component: m.CheckoutPage })),
        },
        {
          path: 'forgot-password',
          lazy: () =>
            import('../features/accounts/forgot-password-page.tsx').then((m) => ({ Component: m.ForgotPasswordPage })),
        },
        {
          path: 'reset-password',
          lazy: () =>
            import('../features/accounts/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage })),
        },
        {
          path: 'email/verify',
          lazy: () =>
            import('../features/accounts/verify-email-page.tsx').then((m) => ({ Component: m.VerifyEmailPage })),
        },
        {
          path: 'email/change',
          lazy: () =>
            import('../features/accounts/email-change-page.tsx').then((m) => ({ Component: m.EmailChangePage })),
        },
        {
          path: 'exit',
          lazy: () => import('../features/accounts/exit-page.tsx').then((m) => ({ Component: m.ExitPage })),
        },
        {
          path: 'user-panel',
          lazy: () => import('./user-panel-page.tsx').then((m) => ({ Component: m.UserPanelPage })),
        },
        {
          path: 'user-panel/item/:sefId',
          lazy: () => import('../features/library/item-page.tsx').then((m) => ({ Component: m.ItemPage })),
        },
        {
          path: 'about',
          lazy: () => import('../features/content/about-page.tsx').then((m) => ({ Component: m.AboutPage })),
        },
        // One page for both: it reads the path for its title and heading.
        {
          path: 'contact',
          lazy: () => import('../features/messages/contact-page.tsx').then((m) => ({ Component: m.ContactPage })),
        },
        {
          path: 'support',
          lazy: () => import('../features/messages/contact-page.tsx').then((m) => ({ Component: m.ContactPage })),
        },
        {
          path: 'privacy-policy',
          lazy: () =>
            import('../features/content/privacy-policy-page.tsx').then((m) => ({ Component: m.PrivacyPolicyPage })),
        },
        {
          path: 'terms-and-conditions',
          lazy: () => import('../features/content/terms-page.tsx').then((m) => ({ Component: m.TermsPage })),
        },
        {
          path: 'refund-policy',
          lazy: () =>
            import('../features/content/refund-policy-page.tsx').then((m) => ({ Component: m.RefundPolicyPage })),
        },
        {
          path: 'cookie-policy',
          lazy: () =>
            import('../features/content/cookie-policy-page.tsx').then((m) => ({ Component: m.CookiePolicyPage })),
        },
        {
          path: 'licence',
          lazy: () => import('../features/library/licence-page.tsx').then((m) => ({ Component: m.LicencePage })),
        },
        // The blog: pages the server renders (GET /blog, /blog/:slug), shown in this layout.
        {
          path: 'blog/*',
          lazy: () => import('../features/content/blog-page.tsx').then((m) => ({ Component: m.BlogPage })),
        },
        // The owner console (issue 11); the module exports `Component`.
        { path: 'admin/*', lazy: () => import('../features/admin/admin-route.tsx') },
        { path: '*', Component: NotFoundPage },
      ],
    },
    {
      // Sign in and sign up: a centred card without the shop's header and footer.
      lazy: () => import('../features/accounts/auth-layout.tsx').then((m) => ({ Component: m.AuthLayout })),
      HydrateFallback: () => null,
      children: [
        {
          path: 'login',
          lazy: () => import('../features/accounts/login-page.tsx').then((m) => ({ Component: m.LoginPage })),
        },
        {
          path: 'register',
          lazy: () => import('../features/accounts/register-page.tsx').then((m) => ({ Component: m.RegisterPage })),
        },
      ],
    },
  ],
  { basename: clientConfig.basePath || '/' },
);
