import './admin.scss';
import { lazy, Suspense, useEffect } from 'react';
import { NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '../../app/session.ts';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { setReturnPath } from '../../lib/return-path.ts';
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

const LINKS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/orders', label: 'Orders' },
  { to: '/admin/customers', label: 'Customers' },
  { to: '/admin/kits', label: 'Kits' },
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

function AdminNotFound() {
  return (
    <>
      <PageHeader title="Not found" />
      <EmptyState>There is no such screen in the console.</EmptyState>
    </>
  );
}

function Console() {
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
          <Routes>
            <Route index element={<DashboardPage />} />
            <Route path="orders" element={<OrdersPage />} />
            <Route path="orders/:id" element={<OrderPage />} />
            <Route path="customers" element={<CustomersPage />} />
            <Route path="customers/:id" element={<CustomerPage />} />
            <Route path="kits" element={<KitsPage />} />
            <Route path="messages" element={<MessagesPage />} />
            <Route path="subscribers" element={<SubscribersPage />} />
            <Route path="activity" element={<ActivityPage />} />
            <Route path="*" element={<AdminNotFound />} />
          </Routes>
        </Suspense>
      </div>
    </div>
  );
}

/**
 * `/admin/*`: the owner console. Signed out, the visitor signs in and comes back here; a signed-in
 * customer who is not an owner gets the ordinary not-found page (the server answers 404 too), so
 * the console does not reveal that it exists. The server checks ownership on every call anyway.
 */
export function AdminApp() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    if (user) return;
    setReturnPath(pathname.replace(/^\/+|\/+$/g, '') || 'admin');
    navigate('/login', { replace: true });
  }, [user, navigate, pathname]);

  if (!user) return null;
  if (!user.owner) return <NotFoundPage />;
  return <Console />;
}
