import { Link } from '@tanstack/react-router';

const NAV_ITEMS = [
  { to: '/', label: 'Dashboard' },
  { to: '/orders', label: 'Orders' },
  { to: '/settings', label: 'Settings' },
] as const;

export function Sidebar() {
  return (
    <aside className="w-60 shrink-0 border-r border-slate-200 bg-white px-4 py-6">
      <p className="mb-8 px-2 text-lg font-semibold">{import.meta.env.VITE_APP_NAME}</p>
      <nav className="space-y-1">
        {NAV_ITEMS.map((item) => (
          <Link
            key={item.to}
            to={item.to}
            activeOptions={{ exact: item.to === '/' }}
            className="block rounded-lg px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-100"
            activeProps={{ className: 'bg-accent-soft font-medium text-accent' }}
          >
            {item.label}
          </Link>
        ))}
      </nav>
    </aside>
  );
}
