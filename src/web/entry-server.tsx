/**
 * The server's side of the public screens: the same routes and components as the
 * browser, rendered to HTML in Node. Vite builds this file for Node (`dist/ssr`); the page shell
 * (`server/http/page-shell.ts`) calls `render` once per route and catalog snapshot and keeps the
 * result, so a visitor's request only splices its own initial data into a kept page.
 *
 * What differs per visitor (the signed-in name, the cart, the consent bar) is rendered here as for
 * a first-time visitor, and by the browser once it has hydrated the page (`lib/hydration.ts`).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { ClientConfig, PageQuery } from '../common/page-data.ts';
import { AppRoutes, preloadScreens } from './app/routes.tsx';
import { ToastProvider } from './components/toasts.tsx';
import { clientConfig } from './lib/initial-data.ts';

export type RenderInput = {
  /** The URL as the browser asked for it, base path included (`/shop/product/x`). */
  url: string;
  config: ClientConfig;
  /** The answers the screen asks for, so it renders complete in one pass. */
  queries: PageQuery[];
};

/** The screen at `url` as HTML for `#root`. A screen that fails to render throws (the shell logs it). */
export async function render(input: RenderInput): Promise<string | null> {
  const basename = input.config.basePath || '/';
  const { pathname } = new URL(input.url, 'http://kitshop.invalid');
  // The screen's code first, so it renders in one synchronous pass instead of suspending.
  await preloadScreens(pathname, basename);
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  for (const [key, data] of input.queries) queryClient.setQueryData(key, data);
  // renderToString is synchronous: the shared settings hold this shop's values for its whole pass.
  Object.assign(clientConfig, input.config);
  try {
    return renderToString(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <ToastProvider>
            <StaticRouter location={input.url} basename={basename}>
              <AppRoutes />
            </StaticRouter>
          </ToastProvider>
        </QueryClientProvider>
      </StrictMode>,
    );
  } finally {
    queryClient.clear();
  }
}
