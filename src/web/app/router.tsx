import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../components/not-found-page.tsx';
import { HomePage } from '../features/catalog/home-page.tsx';
import { clientConfig } from '../lib/initial-data.ts';
import { RootLayout } from './layouts/root-layout.tsx';

/**
 * Every screen. The home page ships in the first load; every other screen is its own chunk.
 * Keep in step with SCREEN_PATTERNS in src/common/paths.ts (the server's list of what exists).
 */
export const router = createBrowserRouter(
  [
    {
      Component: RootLayout,
      children: [
        { index: true, Component: HomePage },
        {
          path: 'product/:sefId',
          lazy: () => import('../features/catalog/product-page.tsx').then((m) => ({ Component: m.ProductPage })),
        },
        {
          path: 'docs/:sefId/:page?',
          lazy: () => import('../features/catalog/docs-page.tsx').then((m) => ({ Component: m.DocsPage })),
        },
        { path: '*', Component: NotFoundPage },
      ],
    },
  ],
  { basename: clientConfig.basePath || '/' },
);
