import { useQuery } from '@tanstack/react-query';
import type { ContentPage, ContentPageName } from '../../common/schemas/content.ts';
import { apiGet } from './api.ts';

/** The about page or a legal text, rendered by the server from content/legal/<name>.md (fixed while it runs). */
export const useContentPage = (name: ContentPageName) =>
  useQuery({
    queryKey: ['content-page', name],
    queryFn: () => apiGet<ContentPage>(`/api/content/${name}`),
    staleTime: Number.POSITIVE_INFINITY,
  });
