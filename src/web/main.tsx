import './styles/main.scss';
import './lib/analytics.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { currentUserId, subscribeToCurrentUser } from './app/session.ts';
import { ToastProvider } from './components/toasts.tsx';
import { ApiError } from './lib/api.ts';
import { forgetOnSignOut } from './lib/forget-on-sign-out.ts';

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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
