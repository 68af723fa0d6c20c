import { initialData } from './initial-data.ts';

/**
 * A page the server rendered into #root (the blog's, in the shop's layout): read once, before the
 * app replaces #root's children, so the app can show the same HTML inside its own layout.
 * `root` is all of it (shown while the app's first screen loads), `main` the page itself.
 */
export type ServerPage = { path: string; title: string; root: string; main: string };

function read(): ServerPage | null {
  const root = document.getElementById('root');
  const main = root?.querySelector(':scope > main');
  if (!root || !main) return null;
  return { path: initialData.path, title: document.title, root: root.innerHTML, main: main.innerHTML };
}

export const serverPage = read();

/** '/blog/' and '/blog' are one page. */
export const samePath = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
