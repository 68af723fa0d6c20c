import { type ComponentType, createElement, use } from 'react';

const RELOADED_KEY = 'screenReloadedAt';

/**
 * A chunk that cannot be fetched most often means a new version was deployed since this page was
 * loaded (its chunks have new names): the page is loaded again, at most once a minute, so a buyer
 * is not left with a dead screen.
 */
function reloadOnceAfterDeploy() {
  if (typeof window === 'undefined') return;
  try {
    const last = Number(window.sessionStorage.getItem(RELOADED_KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    window.sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
  } catch {
    return;
  }
  window.location.reload();
}

/** A screen whose code is its own chunk, and which can be loaded ahead (`preload`). */
export type LazyScreen = ComponentType & { preload: () => Promise<void> };

/**
 * A screen loaded on demand, like React.lazy, but which renders at once when its code is already
 * there: the browser loads the code of the screen at its address before it hydrates the server's
 * HTML, and the server before it renders, so neither suspends (and hydration finds what the server
 * sent). Reached by a link, it suspends until its chunk arrives, inside the layout's Suspense.
 */
export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
  let loaded: ComponentType | undefined;
  let pending: Promise<void> | undefined;
  const preload = () => {
    pending ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        pending = undefined;
        reloadOnceAfterDeploy();
        throw error;
      },
    );
    return pending;
  };
  function Screen() {
    if (!loaded) use(preload());
    return createElement(loaded!);
  }
  return Object.assign(Screen, { preload });
}
