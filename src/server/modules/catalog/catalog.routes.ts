import type { FastifyInstance } from 'fastify';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import { AppError } from '../../http/errors.ts';
import { JSON_TYPE, type PrecompressedBody, precompressedOf, sendPrecompressed } from '../../http/precompressed.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { Catalog, CatalogSnapshot } from './catalog.service.ts';

const UNKNOWN_KIT = 'We could not find that kit.';

/** The catalog's list, under the base path. */
const CATALOG_LIST_PATH = '/api/products';

/** The answer of `POST /api/products` for a snapshot: its list, serialised and compressed once. */
const keptList = (snapshot: CatalogSnapshot): PrecompressedBody =>
  precompressedOf(snapshot, 'list', () => snapshot.listJson);

/**
 * The catalog API. Reads only, so no CSRF token is required (the browser sends one anyway). Each
 * answer is the same for every visitor until the catalog changes: it is serialised and compressed
 * once per snapshot.
 */
export function registerCatalogRoutes(fastify: FastifyInstance, catalog: Catalog): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Their answers come compressed (or are a few bytes of error): app.ts's compression has no work
  // here, and its two hooks would run on each request for nothing.
  const route = { compress: false, config: { csrf: false } } as const;
  app.post(CATALOG_LIST_PATH, route, async (request, reply) => {
    return sendPrecompressed(request, reply.type(JSON_TYPE), keptList(await catalog.snapshot()));
  });

  app.post('/api/product/:sefid', { ...route, schema: { params: SefIdParamsSchema } }, async (request, reply) => {
    const { sefid } = request.params;
    const entry = await catalog.entry(sefid);
    if (!entry) throw new AppError('not_found', UNKNOWN_KIT);
    return sendPrecompressed(
      request,
      reply.type(JSON_TYPE),
      precompressedOf(entry, 'product', () => entry.productJson),
    );
  });

  app.get('/api/docs/:sefid', { compress: false, schema: { params: SefIdParamsSchema } }, async (request, reply) => {
    const { sefid } = request.params;
    const entry = await catalog.entry(sefid);
    const docsJson = entry?.docsJson;
    if (!docsJson) throw new AppError('not_found', 'This kit has no documentation.');
    return sendPrecompressed(
      request,
      reply.type(JSON_TYPE).header('cache-control', 'public, max-age=60'),
      precompressedOf(entry, 'docs', () => docsJson),
    );
  });
}
