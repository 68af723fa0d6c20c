import type { FastifyInstance } from 'fastify';
import { SubscribersQuerySchema } from '../../../common/schemas/owner.ts';
import type { Database } from '../../db/open.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { today } from '../../lib/days.ts';
import { subscribersCsvFile, subscribersPage } from '../messages/messages.owner.service.ts';
import { decodeCursor, iso, pageOf } from './owner.params.ts';

/** The newsletter's subscribers, page by page and as a CSV download (inside the owner scope). */
export function registerSubscriberRoutes(scope: FastifyInstance, deps: { db: Database }): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const subscribersCsv = subscribersCsvFile(db);

  app.get('/subscribers', { schema: { querystring: SubscribersQuerySchema } }, async (request) => {
    const input = request.query;
    const { total, rows } = await subscribersPage(db, {
      query: input.query || undefined,
      after: decodeCursor(input.cursor),
      limit: input.limit + 1,
    });
    const page = pageOf(rows, input.limit);
    return {
      total,
      items: page.rows.map((r) => ({ email: r.email, subscribed_at: iso(r.subscribed_at)! })),
      next_cursor: page.next_cursor,
    };
  });

  // Not compressed on the fly: a rare owner download, where brotli would cost more than it saves.
  app.get('/subscribers.csv', { compress: false }, async (_request, reply) => {
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="subscribers-${today()}.csv"`)
      .send(await subscribersCsv());
  });
}
