import type { FastifyInstance } from 'fastify';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import type { Catalog } from './catalog.service.ts';

const UNKNOWN_KIT = 'We could not find that kit.';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The catalog API. Reads only, so no CSRF token is required (the browser sends one anyway). */
export function registerCatalogRoutes(app: FastifyInstance, catalog: Catalog): void {
  app.post('/api/products', { config: { csrf: false } }, async (_request, reply) => {
    const { listJson } = await catalog.snapshot();
    return reply.type(JSON_TYPE).send(listJson);
  });

  app.post('/api/product/:sefid', { config: { csrf: false } }, async (request, reply) => {
    const { sefid } = parseInput(SefIdParamsSchema, request.params, 'not_found');
    const entry = await catalog.entry(sefid);
    if (!entry) throw new AppError('not_found', UNKNOWN_KIT);
    return reply.type(JSON_TYPE).send(entry.productJson);
  });

  app.get('/api/docs/:sefid', async (request, reply) => {
    const { sefid } = parseInput(SefIdParamsSchema, request.params, 'not_found');
    const entry = await catalog.entry(sefid);
    if (!entry?.docsJson) throw new AppError('not_found', 'This kit has no documentation.');
    return reply.type(JSON_TYPE).header('cache-control', 'public, max-age=60').send(entry.docsJson);
  });
}
