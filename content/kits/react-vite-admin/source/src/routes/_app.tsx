import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { Sidebar } from '../components/Sidebar';
import { TOKEN_KEY } from '../lib/api';

export const Route = createFileRoute('/_app')({
  beforeLoad: ({ location }) => {
    if (!localStorage.getItem(TOKEN_KEY)) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    }
  },
  component: AppLayout,
});

function AppLayout() {
  return (
    <div className="flex min-h-screen">
      <Sidebar />
      <main className="flex-1 px-8 py-6">
        <Outlet />
      </main>
    </div>
  );
}
