import { useQuery } from '@tanstack/react-query';
import { PAGE_QUERY_KEYS } from '../../common/page-data.ts';

/**
 * A page the server rendered itself (the blog's list and posts) and hands to the app with the
 * first response, under the query key `PAGE_QUERY_KEYS.storePage(path)`: the app shows its HTML in the shop's
 * layout. It is never fetched as JSON: reached without a page load, the screen asks for the page.
 */
export type ServerPage = { title: string; html: string };

export function useServerPage(path: string): ServerPage | undefined {
  return useQuery<ServerPage>({
    queryKey: PAGE_QUERY_KEYS.storePage(path),
    queryFn: () => Promise.reject(new Error('a server page arrives with the document only')),
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}
