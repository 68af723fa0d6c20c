import { useEffect } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { ConsentBanner } from '../../components/consent-banner.tsx';
import { TestPaymentsBanner } from '../../components/test-payments-banner.tsx';
import { rememberCodeFromLink } from '../../lib/cart/discount-code.ts';
import { useRouteChangeEffects } from '../page-type.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/** Header, screen, footer. Every route change scrolls to the top and sets the page-type flag. */
export function RootLayout() {
  const navigation = useNavigation();
  useRouteChangeEffects();
  const { search } = useLocation();
  useEffect(() => rememberCodeFromLink(search), [search]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ConsentBanner />
      <TestPaymentsBanner />
      <Header />
      <main id="main" className={navigation.state === 'loading' ? 'is-loading' : undefined}>
        <Outlet />
      </main>
      <Footer />
    </>
  );
}
