import type { FastifyInstance } from 'fastify';
import { CodeOfferParamsSchema } from '../../../common/schemas/orders.ts';
import type { Database } from '../../db/open.ts';
import { typedParams, type ZodTypeProvider } from '../../http/route-schemas.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import { codeOffer, type ShopStatsSource } from './storefront.service.ts';

export type StorefrontDeps = { db: Database; catalog: Catalog; timeZone: string; stats: ShopStatsSource };

/** Public reads for the storefront's pages: the shop's figures and what a linked code takes off. */
export function registerStorefrontRoutes(fastify: FastifyInstance, deps: StorefrontDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/shop-stats', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return deps.stats.get();
  });

  // A code's validity is already what POST /api/cart answers; this tells no more than that does.
  app.get(
    '/api/discount-codes/:code',
    { schema: { params: typedParams(CodeOfferParamsSchema) } },
    async (request, reply) => {
      const { code } = request.params;
      const user = await request.user();
      reply.header('cache-control', 'private, no-store');
      return codeOffer(deps, code, user?.id ?? null);
    },
  );
}
