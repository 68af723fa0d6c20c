import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors.ts';
import type { ContentPages } from './pages.service.ts';

/** `GET /api/content/:name`: the about page or a legal text, rendered at start (a public read, cached briefly). */
export function registerContentPageRoutes(app: FastifyInstance, pages: ContentPages): void {
  app.get('/api/content/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const json = pages.json(name);
    if (!json) throw new AppError('not_found', 'There is no such page.');
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=60').send(json);
  });
}
