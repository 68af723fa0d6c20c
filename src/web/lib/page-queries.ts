/** A TanStack Query key and the answer the browser would have fetched for it. */
export type PageQuery = [key: readonly unknown[], data: unknown];

/**
 * `<script type="application/json" id="page-queries">`: the answers a server-rendered page was
 * rendered with, as `[key, data]` pairs, which the browser puts in its query cache before the
 * screen first renders.
 */
export const PAGE_QUERIES_ID = 'page-queries';

export function readPageQueries(): PageQuery[] | null {
  const text = document.getElementById(PAGE_QUERIES_ID)?.textContent;
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as PageQuery[]) : null;
  } catch {
    return null;
  }
}
