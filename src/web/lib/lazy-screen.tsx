import { type ComponentType, createElement, use } from 'react';

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
    pending ??= load().then((component) => {
      loaded = component;
    });
    return pending;
  };
  function Screen() {
    if (!loaded) use(preload());
    return createElement(loaded!);
  }
  return Object.assign(Screen, { preload });
}
