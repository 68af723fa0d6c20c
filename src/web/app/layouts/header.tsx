import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { SITE_NAME } from '../../../common/site.ts';
import { Icon } from '../../components/icon.tsx';
import { useKits } from '../../features/catalog/catalog-api.ts';
import { useCart } from '../../lib/cart/use-cart.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { useCurrentUser } from '../session.ts';

// Only signed-in visitors load the dropdown (and its positioning code).
const UserMenu = lazy(() => import('./user-menu.tsx'));

const SLIDE_MS = 300;

const DESKTOP = '(min-width: 992px)';

/**
 * Below 992 px the links move into Bootstrap's off-canvas panel (`offcanvas-lg`), which slides
 * in over 300 ms; above it they sit in the bar. Escape, the backdrop, the close button and a
 * window grown to 992 px close it.
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
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const desktop = window.matchMedia(DESKTOP);
    const onChange = () => desktop.matches && setState('closed');
    desktop.addEventListener('change', onChange);
    return () => desktop.removeEventListener('change', onChange);
  }, []);
  const classes = { closed: '', opening: 'showing', open: 'show', closing: 'show hiding' }[state];
  return { state, open, close, classes, toggler, panel };
}

/**
 * Kits and Blog, in the bar from 992 px; in the phone menu, Kits also lists each kit's product page,
 * asked for once the menu opens. The blog is a server-rendered page, so a plain link.
 */
function PhoneMenuEntries({ open }: { open: boolean }) {
  const { data: kits } = useKits(open);
  return (
    <>
      <li className="nav-item menu-group">
        <Link to="/#kits" className="nav-link menu-group-title">
          Kits
        </Link>
        {kits && kits.length > 0 && (
          <ul className="list-unstyled menu-group-links d-lg-none">
            {kits.map((kit) => (
              <li key={kit.id}>
                <NavLink to={`/product/${kit.sef_id}`} className="nav-link">
                  {kit.title}
                </NavLink>
              </li>
            ))}
          </ul>
        )}
      </li>
      <li className="nav-item">
        <a href={appUrl('/blog')} className="nav-link">
          Blog
        </a>
      </li>
    </>
  );
}

/**
 * The cart's link with its count. Its own component, as the count is the browser's (its storage):
 * when the page comes alive and whenever the cart changes, only this link renders again.
 */
function CartLink() {
  const cart = useCart();
  return (
    <Link to="/cart" className="nav-link cart-link" aria-label={`Cart, ${cart.count} items`}>
      <Icon name="cart" size={22} />
      <span className="badge rounded-pill cart-badge" data-testid="cart-count">
        {cart.count}
      </span>
    </Link>
  );
}

/** The signed-in user's menu, or Sign in and Sign up; its own component for the same reason. */
function AccountEntries({ menuOpen }: { menuOpen: boolean }) {
  const user = useCurrentUser();
  return user ? (
    <li className="nav-item dropdown">
      <Suspense fallback={<span className="nav-link">{user.name || 'User'}</span>}>
        {/* In the phone menu its items show at once: one tap away, not in a second dropdown. */}
        <UserMenu name={user.name} pinned={menuOpen} />
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
  );
}

export function Header() {
  const menu = useMobileMenu();
  const { key } = useLocation();
  const { close } = menu;
  // Any navigation closes the menu (also /#kits from the home page, whose path stays the same).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => close(), [key, close]);
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
          <CartLink />
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
              <PhoneMenuEntries open={visible} />
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
              <AccountEntries menuOpen={visible} />
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
