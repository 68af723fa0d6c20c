import type { FastifyInstance } from 'fastify';
import { SubscribersQuerySchema } from '../../../common/schemas/owner.ts';
import type { Database } from '../../db/open.ts';
import { parseInput } from '../../http/errors.ts';
import { today } from '../../lib/days.ts';
import { subscribersCsvFile, subscribersPage } from '../messages/messages.owner.service.ts';
import { decodeCursor, iso, nextCursor } from './owner.params.ts';

/** The newsletter's subscribers, page by page and as a CSV download (inside the owner scope). */
export function registerSubscriberRoutes(scope: FastifyInstance, deps: { db: Database }): void {
  const { db } = deps;
  const subscribersCsv = subscribersCsvFile(db);

  scope.get('/subscribers', async (request) => {
    const input = parseInput(SubscribersQuerySchema, request.query);
    const { total, rows } = await subscribersPage(db, {
      query: input.query || undefined,
      after: decodeCursor(input.cursor),
      limit: input.limit,
    });
    return {
      total,
      items: rows.map((r) => ({ email: r.email, subscribed_at: iso(r.subscribed_at)! })),
      next_cursor: nextCursor(rows, input.limit),
    };
  });

  // Not compressed on the fly: a rare owner download, where brotli would cost more than it saves.
  scope.get('/subscribers.csv', { compress: false }, async (_request, reply) => {
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="subscribers-${today()}.csv"`)
      .send(await subscribersCsv());
  });
}
