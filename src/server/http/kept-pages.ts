/**
 * The pages the page shell keeps (docs/decisions/011): per catalog snapshot, under the key
 * `keptPageKey` gives a request's URL, at
 * most `limit` of them. Only the shell stores pages, and only under the canonical path of a screen
 * that exists, so a made-up path or another spelling of a real one never takes a place; when the
 * bound is reached the page used least recently makes room, and the others stay. A page rendered with
 * figures that are kept for a while (the home page's buyers) is kept only as long as they are.
 */
export class KeptPages<Page> {
  readonly limit: number;
  readonly #now: () => number;
  #snapshot: unknown = null;
  /** In the order of their last use, oldest first (a Map iterates in insertion order). */
  readonly #pages = new Map<string, { page: Page; until: number }>();

  constructor(limit = 1000, now: () => number = () => Date.now()) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('KeptPages needs a limit of at least one page');
    this.limit = limit;
    this.#now = now;
  }

  /** How many pages are kept. */
  get size(): number {
    return this.#pages.size;
  }

  /** The page kept under `key` from this catalog snapshot (which makes it the most recently used). */
  get(snapshot: unknown, key: string | undefined): Page | undefined {
    if (key === undefined || snapshot !== this.#snapshot) return undefined;
    const entry = this.#pages.get(key);
    if (entry === undefined) return undefined;
    this.#pages.delete(key);
    if (this.#now() >= entry.until) return undefined;
    this.#pages.set(key, entry);
    return entry.page;
  }

  /**
   * Keeps `page` under `key`, until the time `until` (ms since the epoch; for good when absent); a
   * new snapshot drops the pages of the one before.
   */
  set(snapshot: unknown, key: string, page: Page, until = Number.POSITIVE_INFINITY): void {
    if (snapshot !== this.#snapshot) {
      this.#snapshot = snapshot;
      this.#pages.clear();
    }
    this.#pages.delete(key);
    this.#pages.set(key, { page, until });
    if (this.#pages.size > this.limit) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
  }
}

/**
 * The key a request's URL (base path and query included) finds its kept page under: its route path,
 * as the shell keeps a screen's page under its canonical path. A URL with a query (a screen may read
 * it) or outside the base path has none.
 */
export function keptPageKey(url: string, basePath: string): string | undefined {
  if (url.includes('?') || !url.startsWith(basePath)) return undefined;
  const routePath = url.slice(basePath.length);
  if (routePath === '') return '/';
  return routePath.startsWith('/') ? routePath : undefined;
}
