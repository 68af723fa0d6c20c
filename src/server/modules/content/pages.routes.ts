import type { FastifyInstance } from 'fastify';
import { PAGE_QUERY_KEYS } from '../../../common/page-data.ts';
import type { ContentPage } from '../../../common/schemas/content.ts';
import { type ScreenPattern, screenOf } from '../../../common/screens.ts';
import { AppError } from '../../http/errors.ts';
import type { ContentPages } from './pages.service.ts';

/** The text a screen is rendered with on the server (the shell's `screenQueries`), under the key `useContentPage` asks with. */
export const contentScreenQueries =
  (pages: ContentPages) =>
  (pattern: ScreenPattern): [key: readonly unknown[], page: ContentPage][] => {
    const name = screenOf(pattern).text;
    const page = name && pages.get(name);
    return page ? [[PAGE_QUERY_KEYS.contentPage(name), page]] : [];
  };

/** `GET /api/content/:name`: the about page or a legal text, rendered at start (a public read, cached briefly). */
export function registerContentPageRoutes(app: FastifyInstance, pages: ContentPages): void {
  app.get('/api/content/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const json = pages.json(name);
    if (!json) throw new AppError('not_found', 'There is no such page.');
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=60').send(json);
  });
}
