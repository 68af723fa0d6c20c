import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject, useRoutes } from 'react-router';
import { componentName, SCREEN_PATTERNS, type ScreenPattern, screenOf } from '../../common/screens.ts';
import { NotFoundPage } from '../components/not-found-page.tsx';
import { HomePage } from '../features/catalog/home-page.tsx';
import { type LazyScreen, lazyScreen } from '../lib/lazy-screen.tsx';
import { RootLayout } from './layouts/root-layout.tsx';

/**
 * The code of every screen and layout screens.ts may name, each its own chunk (keyed `../features/...`).
 * Relative to this file, not to a root: Vite's root is src/web in the build, the project in Vitest.
 */
const SCREEN_CODE = import.meta.glob<Record<string, ComponentType | undefined>>([
  '../features/*/*-page.tsx',
  '../features/*/*-layout.tsx',
  '../app/*-page.tsx',
  '!../features/admin/**',
  // In the first load (IN_ENTRY).
  '!../features/catalog/home-page.tsx',
]);
/** The same code by screens.ts's module name (`features/x/y-page.tsx`, `app/y-page.tsx`): Vite keys this folder's files `./`. */
const CODE_BY_MODULE = new Map(
  Object.entries(SCREEN_CODE).map(([key, load]) => [key.replace(/^\.\.\//, '').replace(/^\.\//, 'app/'), load]),
);

const ownerConsole = lazyScreen(() => import('../features/admin/admin-route.tsx').then((m) => m.AdminRoute));

/** The screens in the first load, by module: no chunk of their own. */
const IN_ENTRY: Record<string, ComponentType> = { 'features/catalog/home-page.tsx': HomePage };

/** A route whose screen is a lazy chunk: its element, and its code's preload for `preloadScreens`. */
function lazyRoute(Screen: LazyScreen, key?: string): Pick<RouteObject, 'element' | 'handle'> {
  return { element: <Screen key={key} />, handle: { preload: Screen.preload } };
}

/** One lazy screen per module: its chunk is loaded and preloaded once, whichever path shows it. */
const lazyScreens = new Map<string, LazyScreen>();
function moduleScreen(module: string): LazyScreen {
  let Screen = lazyScreens.get(module);
  if (!Screen) {
    const load = CODE_BY_MODULE.get(module);
    if (!load) throw new Error(`screens.ts names ${module}, which is not a screen's module`);
    const name = componentName(module);
    Screen = lazyScreen(() =>
      load().then((exports) => {
        const component = exports[name];
        if (!component) throw new Error(`${module} exports no ${name}`);
        return component;
      }),
    );
    lazyScreens.set(module, Screen);
  }
  return Screen;
}

/** The route of a screen of screens.ts: its path relative to its layout, and its code. */
function screenRoute(pattern: ScreenPattern): RouteObject {
  const { module } = screenOf(pattern);
  const Entry = IN_ENTRY[module];
  // The paths of one module stay one mounted screen (`/docs/:sefId` and its pages), unless their
  // titles differ: /contact and /support are two screens, each with its own form.
  const code = Entry ? { element: <Entry /> } : lazyRoute(moduleScreen(module), screenOf(pattern).title);
  return pattern === '/' ? { index: true, ...code } : { path: pattern.slice(1), ...code };
}

const inLayout = (layout: string | undefined) =>
  SCREEN_PATTERNS.filter((pattern) => screenOf(pattern).layout === layout).map(screenRoute);
const layouts = [...new Set(SCREEN_PATTERNS.map((pattern) => screenOf(pattern).layout))].filter(
  (layout) => layout !== undefined,
);

/**
 * Every screen of src/common/screens.ts, in the shop's layout or the one it names, and the routes
 * that are not screens of their own. The home page ships in the first load; every other screen is
 * its own chunk.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...inLayout(undefined),
      // The blog: pages the server renders (GET /blog, /blog/:slug), shown in this layout.
      { path: 'blog/*', ...lazyRoute(moduleScreen('features/content/blog-page.tsx')) },
      // The owner console: its route's module is all the first load knows of it.
      { path: 'admin/*', ...lazyRoute(ownerConsole) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  // Sign in and sign up: a centred card without the shop's header and footer.
  ...layouts.map((layout) => ({ ...lazyRoute(moduleScreen(layout)), children: inLayout(layout) })),
];

/** The screens at `pathname` (base path included) with their code loaded: before hydrating or rendering one. */
export async function preloadScreens(pathname: string, basename: string): Promise<void> {
  const matches = matchRoutes(routes, pathname, basename) ?? [];
  await Promise.all(
    matches.map((match) => (match.route.handle as { preload?: () => Promise<void> } | undefined)?.preload?.()),
  );
}

/** The app's screens for the router around them (the browser's, or the server's static one). */
export function AppRoutes() {
  return useRoutes(routes);
}
