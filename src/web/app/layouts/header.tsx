import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { SITE_NAME } from '../../../common/site.ts';
import { Icon } from '../../components/icon.tsx';
import { useCart } from '../../lib/cart/use-cart.ts';
import { useCurrentUser } from '../session.ts';

// Only signed-in visitors load the dropdown (and its positioning code).
const UserMenu = lazy(() => import('./user-menu.tsx'));

const SLIDE_MS = 300;

/**
 * Below 992 px the links move into Bootstrap's off-canvas panel (`offcanvas-lg`), which slides
 * in over 300 ms; above it they sit in the bar. Escape, the backdrop and the close button close it.
 */
function useMobileMenu() {
  const [state, setState] = useState<'closed' | 'opening' | 'open' | 'closing'>('closed');
  const toggler = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const open = () => {
    setState('opening');
    // Only if nothing closed it meanwhile (Escape pressed within these two frames).
    requestAnimationFrame(() => requestAnimationFrame(() => setState((s) => (s === 'opening' ? 'open' : s))));
  };
  const close = useCallback(() => {
    setState((s) => (s === 'closed' ? s : 'closing'));
  }, []);
  useEffect(() => {
    if (state === 'closing') {
      const timer = setTimeout(() => {
        setState('closed');
        toggler.current?.focus();
      }, SLIDE_MS);
      return () => clearTimeout(timer);
    }
    if (state === 'opening' || state === 'open') {
      if (state === 'open') panel.current?.querySelector<HTMLElement>('.btn-close')?.focus();
      const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
      document.addEventListener('keydown', onKey);
      return () => document.removeEventListener('keydown', onKey);
    }
  }, [state, close]);
  const classes = { closed: '', opening: 'showing', open: 'show', closing: 'show hiding' }[state];
  return { state, open, close, classes, toggler, panel };
}

export function Header() {
  const user = useCurrentUser();
  const cart = useCart();
  const menu = useMobileMenu();
  const { pathname } = useLocation();
  const { close } = menu;
  // A route change closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => close(), [pathname, close]);
  const visible = menu.state !== 'closed';

  return (
    <header className="navbar navbar-expand-lg navbar-dark site-header sticky-top">
      <div className="container">
        <Link to="/" className="navbar-brand brand">
          <span className="brand-mark" aria-hidden="true">
            K
          </span>
          {SITE_NAME}
        </Link>
        <div className="d-flex align-items-center gap-2 header-actions">
          <Link to="/cart" className="nav-link cart-link" aria-label={`Cart, ${cart.count} items`}>
            <Icon name="cart" size={22} />
            <span className="badge rounded-pill cart-badge" data-testid="cart-count">
              {cart.count}
            </span>
          </Link>
          <button
            ref={menu.toggler}
            type="button"
            className="navbar-toggler"
            aria-controls="site-menu"
            aria-expanded={visible}
            aria-label="Menu"
            onClick={menu.open}
          >
            <Icon name="menu" />
          </button>
        </div>
        <div
          ref={menu.panel}
          id="site-menu"
          className={`offcanvas-lg offcanvas-end site-menu ${menu.classes}`}
          tabIndex={-1}
          {...(visible ? { role: 'dialog', 'aria-modal': true, 'aria-labelledby': 'site-menu-title' } : {})}
        >
          <div className="offcanvas-header">
            <p className="offcanvas-title h5" id="site-menu-title">
              {SITE_NAME}
            </p>
            <button type="button" className="btn-close" aria-label="Close menu" onClick={close} />
          </div>
          <div className="offcanvas-body">
            <ul className="navbar-nav ms-auto align-items-lg-center">
              <li className="nav-item">
                <NavLink to="/about" className="nav-link">
                  About
                </NavLink>
              </li>
              <li className="nav-item">
                <NavLink to="/support" className="nav-link">
                  Support
                </NavLink>
              </li>
              {user ? (
                <li className="nav-item dropdown">
                  <Suspense fallback={<span className="nav-link">{user.name || 'User'}</span>}>
                    <UserMenu name={user.name} />
                  </Suspense>
                </li>
              ) : (
                <>
                  <li className="nav-item">
                    <NavLink to="/login" className="nav-link">
                      Sign in
                    </NavLink>
                  </li>
                  <li className="nav-item">
                    <NavLink to="/register" className="nav-link btn btn-primary btn-sm px-3 ms-lg-2 sign-up">
                      Sign up
                    </NavLink>
                  </li>
                </>
              )}
            </ul>
          </div>
        </div>
        {visible && (
          <div
            className={`offcanvas-backdrop fade ${menu.state === 'open' ? 'show' : ''}`}
            onClick={close}
            aria-hidden="true"
          />
        )}
      </div>
    </header>
  );
}
