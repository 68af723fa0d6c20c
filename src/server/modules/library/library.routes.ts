import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/open.ts';
import { requireUser } from '../../http/session.ts';
import { listPurchases } from './library.service.ts';

export function registerLibraryRoutes(app: FastifyInstance, db: Database): void {
  app.post('/api/purchases', async (request) => {
    const user = await requireUser(request);
    return { items: await listPurchases(db, user.id) };
  });
}
