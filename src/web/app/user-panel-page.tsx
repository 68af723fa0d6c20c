import './user-panel-page.scss';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ProfileTab } from '../features/accounts/profile-tab.tsx';
import { OrdersTab } from '../features/checkout/orders-tab.tsx';
import { PurchasesTab } from '../features/library/purchases-tab.tsx';
import { useScreenTitleAndPageView } from '../lib/page-view.ts';
import { setReturnPath } from '../lib/return-path.ts';
import { useCurrentUser } from './session.ts';

const TABS = [
  { id: 'purchases', label: 'Purchases' },
  { id: 'orders', label: 'Orders' },
  { id: 'profile', label: 'Profile' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const tabFrom = (value: string | null): TabId => TABS.find((tab) => tab.id === value)?.id ?? 'purchases';

/**
 * The signed-in user's panel: Purchases (default), Orders and Profile tabs; `?tab=orders` and
 * `?tab=profile` open the others. A signed-out visitor goes to login, which brings them back here afterwards.
 */
export function UserPanelPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const active = tabFrom(params.get('tab'));
  const tabRefs = useRef<Partial<Record<TabId, HTMLButtonElement | null>>>({});
  useScreenTitleAndPageView('/user-panel', Boolean(user));

  useEffect(() => {
    if (user) return;
    setReturnPath('user-panel');
    navigate('/login', { replace: true });
  }, [user, navigate]);

  if (!user) return null;

  const select = (tab: TabId, focus = false) => {
    if (tab !== active) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (tab === 'purchases') next.delete('tab');
          else next.set('tab', tab);
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    }
    if (focus) tabRefs.current[tab]?.focus();
  };

  // Arrow keys, Home and End move between the tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((t) => t.id === active);
    const last = TABS.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(TABS[target]!.id, true);
  };

  return (
    <section className="section user-panel">
      <div className="container">
        <header className="user-panel-head">
          <h1 className="user-panel-title">User Panel</h1>
          <p className="text-body-secondary mb-0">
            Signed in as <strong>{user.name || 'User'}</strong>
          </p>
        </header>
        <div className="nav nav-tabs user-panel-tabs" role="tablist" aria-label="User panel">
          {TABS.map((tab) => {
            const selected = tab.id === active;
            return (
              <button
                key={tab.id}
                ref={(el) => {
                  tabRefs.current[tab.id] = el;
                }}
                type="button"
                role="tab"
                id={`tab-${tab.id}`}
                className={selected ? 'nav-link active' : 'nav-link'}
                aria-selected={selected}
                aria-controls={`panel-${tab.id}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => select(tab.id)}
                onKeyDown={onKeyDown}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        {TABS.map((tab) => (
          <div
            key={tab.id}
            id={`panel-${tab.id}`}
            role="tabpanel"
            aria-labelledby={`tab-${tab.id}`}
            className="user-panel-pane"
            hidden={tab.id !== active}
          >
            {tab.id === active &&
              (tab.id === 'purchases' ? (
                <PurchasesTab key={user.id} />
              ) : tab.id === 'orders' ? (
                <OrdersTab key={user.id} />
              ) : (
                <ProfileTab />
              ))}
          </div>
        ))}
      </div>
    </section>
  );
}
