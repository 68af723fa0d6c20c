import './styles/main.scss';
import './lib/analytics.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes, preloadScreens } from './app/routes.tsx';
import { currentUserId, subscribeToCurrentUser } from './app/session.ts';
import { ToastProvider } from './components/toasts.tsx';
import { ApiError } from './lib/api.ts';
import { forgetOnSignOut } from './lib/forget-on-sign-out.ts';
import { clientConfig } from './lib/initial-data.ts';
import { readPageQueries } from './lib/page-queries.ts';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});

// Nothing a signed-in page fetched outlives the session in this page.
forgetOnSignOut(subscribeToCurrentUser, currentUserId, () => queryClient.clear());

const basename = clientConfig.basePath || '/';
const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <BrowserRouter basename={basename}>
          <AppRoutes />
        </BrowserRouter>
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>
);

// The answers the server rendered this page with: the screen starts with them, and asks again in
// the background (they are marked as old), as for any kept page; an unchanged answer re-renders nothing.
for (const [key, data] of readPageQueries() ?? []) queryClient.setQueryData(key, data, { updatedAt: 0 });
// The server renders the public screens into #root: the browser loads that screen's code
// (preloaded by the page's head) and hydrates the HTML; the other screens (checkout, the user panel,
// the owner console) it renders itself.
// (Not a top-level await: the screens' chunks import this entry's own chunk, which must finish first.)
// Hydrated as a transition, React hydrates in slices of a few milliseconds and lets the browser
// answer between them, instead of one task as long as the whole page. It starts in a task of its
// own: the one that ran this module (its code, and the code of every module it imports) is long
// enough already, and a screen whose chunk is already loaded would otherwise begin in it.
if (container.firstElementChild) {
  void preloadScreens(window.location.pathname, basename)
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() =>
      startTransition(() => {
        hydrateRoot(container, app);
      }),
    );
} else {
  createRoot(container).render(app);
}
