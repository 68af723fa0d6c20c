import { PAGE_QUERIES_ID, type PageQuery } from '../../common/page-data.ts';

/** The page's `#page-queries` block (common/page-data.ts), or null when it has none or it is unreadable. */
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
