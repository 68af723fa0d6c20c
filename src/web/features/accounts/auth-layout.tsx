import { Suspense } from 'react';
import './auth-layout.scss';
import { Link, Outlet } from 'react-router';
import { FOOTER_YEAR } from '../../../common/constants.ts';
import { SITE_NAME } from '../../../common/site.ts';
import { useRouteChangeEffects } from '../../app/page-type.ts';
import { HydrationFrame } from '../../components/hydration-frame.tsx';
import { TestPaymentsBanner } from '../../components/test-payments-banner.tsx';

/**
 * The sign-in and sign-up layout: a centred card under the logo (which links home), without the
 * shop's header and footer. Like the root layout, every route change scrolls to the top and sets
 * the page-type flag (`login` on /login).
 */
export function AuthLayout() {
  useRouteChangeEffects();

  return (
    <HydrationFrame>
      <TestPaymentsBanner />
      <div className="auth-shell">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="auth-brand">
          <Link to="/" className="brand" aria-label={`${SITE_NAME} home`}>
            <span className="brand-mark" aria-hidden="true">
              K
            </span>
            {SITE_NAME}
          </Link>
        </header>
        <main id="main" className="auth-main">
          <div className="card auth-card">
            <div className="card-body">
              <Suspense fallback={null}>
                <Outlet />
              </Suspense>
            </div>
          </div>
        </main>
        <footer className="auth-footer">
          <Link to="/">Back to the shop</Link>
          <span aria-hidden="true"> · </span>© {FOOTER_YEAR} {SITE_NAME}
        </footer>
      </div>
    </HydrationFrame>
  );
}
