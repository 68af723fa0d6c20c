import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { CodeBanner } from '../../components/code-banner.tsx';
import { HydrationFrame } from '../../components/hydration-frame.tsx';
import { TestPaymentsBanner } from '../../components/test-payments-banner.tsx';
import { rememberCodeFromLink } from '../../lib/cart/discount-code.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { clientConfig } from '../../lib/initial-data.ts';
import { useRouteChangeEffects } from '../page-type.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

// Only a shop with analytics asks for consent: its bar's code loads there alone, once the page runs.
const ConsentBanner = lazy(() =>
  import('../../components/consent-banner.tsx').then((m) => ({ default: m.ConsentBanner })),
);

/**
 * The consent bar, once the page runs. Its own component: when hydration ends, only it renders
 * again, not the whole page (the layout re-rendering every screen in one task after hydration).
 */
function Consent() {
  const hydrated = useHydrated();
  return hydrated && clientConfig.gaMeasurementId ? (
    <Suspense fallback={null}>
      <ConsentBanner />
    </Suspense>
  ) : null;
}

/** Header, screen, footer. Every route change scrolls to the top and sets the page-type flag. */
export function RootLayout() {
  useRouteChangeEffects();
  const { search } = useLocation();
  useEffect(() => rememberCodeFromLink(search), [search]);

  return (
    <HydrationFrame>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Consent />
      <TestPaymentsBanner />
      <Header />
      <CodeBanner />
      <main id="main">
        {/* A screen's code arriving: the screen before it stays until then (navigations are transitions). */}
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </HydrationFrame>
  );
}
