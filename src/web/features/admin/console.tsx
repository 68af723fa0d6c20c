import './admin.scss';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { NavLink, useLocation } from 'react-router';
import { EmptyState, PageHeader } from './ui.tsx';

const DashboardPage = lazy(() => import('./dashboard-page.tsx'));
const OrdersPage = lazy(() => import('./orders-page.tsx'));
const OrderPage = lazy(() => import('./order-page.tsx'));
const CustomersPage = lazy(() => import('./customers-page.tsx'));
const CustomerPage = lazy(() => import('./customer-page.tsx'));
const KitsPage = lazy(() => import('./kits-page.tsx'));
const MessagesPage = lazy(() => import('./messages-page.tsx'));
const SubscribersPage = lazy(() => import('./subscribers-page.tsx'));
const ActivityPage = lazy(() => import('./activity-page.tsx'));
const DiscountsPage = lazy(() => import('./discounts-page.tsx'));

const LINKS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/orders', label: 'Orders' },
  { to: '/admin/customers', label: 'Customers' },
  { to: '/admin/kits', label: 'Kits' },
  { to: '/admin/discounts', label: 'Discounts' },
  { to: '/admin/messages', label: 'Messages' },
  { to: '/admin/subscribers', label: 'Subscribers' },
  { to: '/admin/activity', label: 'Activity' },
];

/** Search engines never index an owner screen (the server's shell says so too). */
function useNoIndex() {
  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="robots"]');
    const added = !meta;
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'robots';
      document.head.append(meta);
    }
    const before = meta.content;
    meta.content = 'noindex';
    return () => {
      if (added) meta.remove();
      else meta.content = before;
    };
  }, []);
}

/**
 * The screen for a path under /admin. The console matches its few paths itself: React Router's
 * <Routes> would add code to the chunk every buyer loads first (record screens read their id from
 * the path with recordId).
 */
const SCREENS: [RegExp, ComponentType][] = [
  [/^\/?$/, DashboardPage],
  [/^\/orders\/?$/, OrdersPage],
  [/^\/orders\/[^/]+\/?$/, OrderPage],
  [/^\/customers\/?$/, CustomersPage],
  [/^\/customers\/[^/]+\/?$/, CustomerPage],
  [/^\/kits\/?$/, KitsPage],
  [/^\/discounts\/?$/, DiscountsPage],
  [/^\/messages\/?$/, MessagesPage],
  [/^\/subscribers\/?$/, SubscribersPage],
  [/^\/activity\/?$/, ActivityPage],
];

function screenFor(pathname: string): ComponentType {
  const rest = pathname.replace(/^\/admin/, '');
  return SCREENS.find(([pattern]) => pattern.test(rest))?.[1] ?? AdminNotFound;
}

function AdminNotFound() {
  return (
    <>
      <PageHeader title="Not found" />
      <EmptyState>There is no such screen in the console.</EmptyState>
    </>
  );
}

/** The console: its navigation and the screen for the address below /admin. */
export default function Console() {
  const { pathname } = useLocation();
  const Screen = screenFor(pathname);
  useNoIndex();
  return (
    <div className="container-xxl admin">
      <nav className="admin-nav" aria-label="Admin">
        <p className="admin-nav-title">Owner console</p>
        <ul className="nav nav-pills">
          {LINKS.map((link) => (
            <li className="nav-item" key={link.to}>
              <NavLink to={link.to} end={link.end} className="nav-link">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-main">
        <Suspense
          fallback={
            <div className="admin-state" role="status">
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
              Loading…
            </div>
          }
        >
          <Screen />
        </Suspense>
      </div>
    </div>
  );
}
