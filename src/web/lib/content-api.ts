import { useQuery } from '@tanstack/react-query';
import { PAGE_QUERY_KEYS } from '../../common/page-data.ts';
import type { ContentPage, ContentPageName } from '../../common/schemas/content.ts';
import { apiGet } from './api.ts';

/** The about page or a legal text, rendered by the server from content/legal/<name>.md (fixed while it runs). */
export const useContentPage = (name: ContentPageName) =>
  useQuery({
    queryKey: PAGE_QUERY_KEYS.contentPage(name),
    queryFn: () => apiGet<ContentPage>(`/api/content/${name}`),
    staleTime: Number.POSITIVE_INFINITY,
  });
