import './admin.scss';
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { matchesPattern, OWNER_SCREEN_PATTERNS, type OwnerScreenPattern } from '../../../common/screens.ts';
import { setCurrentUser } from '../../app/session.ts';
import { signOutForStepUp, useConsoleAccess } from './admin-api.ts';
import { EmptyState, errorText, PageHeader, QueryState } from './ui.tsx';

const DashboardPage = lazy(() => import('./dashboard-page.tsx'));
const OrdersPage = lazy(() => import('./orders-page.tsx'));
const OrderPage = lazy(() => import('./order-page.tsx'));
const CustomersPage = lazy(() => import('./customers-page.tsx'));
const CustomerPage = lazy(() => import('./customer-page.tsx'));
const KitsPage = lazy(() => import('./kits-page.tsx'));
const KitEditorPage = lazy(() => import('./kit-editor-page.tsx'));
const NewKitPage = lazy(() => import('./kit-editor-new.tsx'));
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
 * The component of each console screen (the table in common/screens.ts). The console matches its
 * few paths itself: React Router's <Routes> would add code to the chunk every buyer loads first
 * (record screens read their id from the path with recordId).
 */
const SCREENS: Record<OwnerScreenPattern, ComponentType> = {
  '/admin': DashboardPage,
  '/admin/orders': OrdersPage,
  '/admin/orders/:id': OrderPage,
  '/admin/customers': CustomersPage,
  '/admin/customers/:id': CustomerPage,
  '/admin/kits': KitsPage,
  '/admin/kits/new': NewKitPage,
  '/admin/kits/:sefId': KitEditorPage,
  '/admin/discounts': DiscountsPage,
  '/admin/messages': MessagesPage,
  '/admin/subscribers': SubscribersPage,
  '/admin/activity': ActivityPage,
};

function screenFor(pathname: string): ComponentType {
  const pattern = OWNER_SCREEN_PATTERNS.find((p) => matchesPattern(p, pathname));
  return pattern ? SCREENS[pattern] : AdminNotFound;
}

function AdminNotFound() {
  return (
    <>
      <PageHeader title="Not found" />
      <EmptyState>There is no such screen in the console.</EmptyState>
    </>
  );
}

/**
 * What the console shows instead of its screens to an owner whose session may not use it: a
 * password alone for an account that has a passkey or two-step sign-in (sign in again with one of
 * them, and come back here), or, on a production shop, an account with neither (add one first).
 */
function SignInStep({ message, stepUp }: { message: string; stepUp: boolean }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const signInAgain = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await signOutForStepUp();
      // Signed out, the console's route keeps this address and sends the visitor to sign in.
      setCurrentUser(null);
    } catch (error) {
      setFailure(errorText(error));
      setBusy(false);
    }
  };
  return (
    <section className="admin-step-up">
      <PageHeader title={stepUp ? 'Confirm it is you' : 'Add a passkey or two-step sign-in'} />
      <div className="card">
        <div className="card-body">
          <p>{message}</p>
          {failure && (
            <div className="alert alert-danger" role="alert">
              {failure}
            </div>
          )}
          {stepUp ? (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void signInAgain()}>
              Sign in with a passkey or code
            </button>
          ) : (
            <Link className="btn btn-primary" to="/user-panel?tab=profile">
              Open your Profile
            </Link>
          )}
        </div>
      </div>
    </section>
  );
}

/** The console: its navigation and the screen for the address below /admin. */
export default function Console() {
  const { pathname } = useLocation();
  const Screen = screenFor(pathname);
  const access = useConsoleAccess();
  useNoIndex();
  if (!access.data) {
    return (
      <div className="container-xxl admin admin-gate">
        <div className="admin-main">
          <QueryState query={access} label="the owner console" />
        </div>
      </div>
    );
  }
  if (!access.data.open) {
    return (
      <div className="container-xxl admin admin-gate">
        <div className="admin-main">
          <SignInStep message={access.data.message} stepUp={access.data.stepUp} />
        </div>
      </div>
    );
  }
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
