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
  readonly #pages = new Map<string, { page: Page; until: number; used: number }>();
  /** Counts uses: an entry's `used` is the count at its last use, so the least recently used has the lowest. */
  #uses = 0;

  constructor(limit = 1000, now: () => number = () => Date.now()) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('KeptPages needs a limit of at least one page');
    this.limit = limit;
    this.#now = now;
  }

  /** How many pages are kept. */
  get size(): number {
    return this.#pages.size;
  }

  /**
   * The page kept under `key` from this catalog snapshot (which makes it the most recently used). A
   * hit only stamps its entry: reordering the map on every hit would make V8 rebuild the map's table
   * each time, and a hit is what nearly every visit of a public page is.
   */
  get(snapshot: unknown, key: string | undefined): Page | undefined {
    if (key === undefined || snapshot !== this.#snapshot) return undefined;
    const entry = this.#pages.get(key);
    if (entry === undefined) return undefined;
    if (entry.until !== Number.POSITIVE_INFINITY && this.#now() >= entry.until) {
      this.#pages.delete(key);
      return undefined;
    }
    entry.used = ++this.#uses;
    return entry.page;
  }

  /**
   * Keeps `page` under `key`, until the time `until` (ms since the epoch; for good when absent); a
   * new snapshot drops the pages of the one before. Past the limit, the least recently used page
   * makes room (found by a walk over the kept pages: a page is kept far less often than found).
   */
  set(snapshot: unknown, key: string, page: Page, until = Number.POSITIVE_INFINITY): void {
    if (snapshot !== this.#snapshot) {
      this.#snapshot = snapshot;
      this.#pages.clear();
    }
    this.#pages.set(key, { page, until, used: ++this.#uses });
    if (this.#pages.size > this.limit) {
      let oldest: string | undefined;
      let oldestUse = Number.POSITIVE_INFINITY;
      for (const [kept, entry] of this.#pages) {
        if (entry.used < oldestUse) {
          oldest = kept;
          oldestUse = entry.used;
        }
      }
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
