import { useEffect } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { pageTypeFor } from '../page-type.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/** Header, screen, footer. Every route change scrolls to the top and sets the page-type flag. */
export function RootLayout() {
  const { pathname, hash } = useLocation();
  const navigation = useNavigation();

  useEffect(() => {
    const type = pageTypeFor(pathname);
    if (type) document.body.dataset.pageType = type;
    else delete document.body.dataset.pageType;
  }, [pathname]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation
  useEffect(() => {
    // A link to an anchor (/#kits) is scrolled by the screen once its content is there.
    // Instant: Bootstrap's smooth scrolling would leave a new screen half-way down.
    if (!hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, hash]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className={navigation.state === 'loading' ? 'is-loading' : undefined}>
        <Outlet />
      </main>
      <Footer />
    </>
  );
}
