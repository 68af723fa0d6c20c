import { useQuery } from '@tanstack/react-query';

/**
 * A page the server rendered itself (the blog's list and posts) and hands to the app with the
 * first response, under the query key `['store-page', path]`: the app shows its HTML in the shop's
 * layout. It is never fetched as JSON: reached without a page load, the screen asks for the page.
 */
export type ServerPage = { title: string; html: string };

export const storePageKey = (path: string) => ['store-page', path.replace(/\/+$/, '') || '/'] as const;

export function useServerPage(path: string): ServerPage | undefined {
  return useQuery<ServerPage>({
    queryKey: storePageKey(path),
    queryFn: () => Promise.reject(new Error('a server page arrives with the document only')),
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}
