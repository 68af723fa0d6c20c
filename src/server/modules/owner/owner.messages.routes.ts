import type { FastifyInstance } from 'fastify';
import { MessagesQuerySchema, ReplySchema } from '../../../common/schemas/owner.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { type MailContext, messageReplyMail } from '../../integrations/mail/templates.ts';
import { findMessage, markAnswered, messagesPage } from '../messages/messages.owner.service.ts';
import { decodeCursor, idParams, iso, type OwnerOf, pageOf } from './owner.params.ts';
import { recordActivity } from './owner.service.ts';

/** The contact form's messages and the owner's replies (inside the owner scope). */
export function registerMessageRoutes(
  scope: FastifyInstance,
  deps: { db: Database; mail: MailContext; ownerOf: OwnerOf; mailQueued: () => void },
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, mail, ownerOf } = deps;

  app.get('/messages', { schema: { querystring: MessagesQuerySchema } }, async (request) => {
    const input = request.query;
    const { total, rows } = await messagesPage(db, {
      status: input.status,
      query: input.query || undefined,
      after: decodeCursor(input.cursor),
      limit: input.limit + 1,
    });
    const page = pageOf(rows, input.limit);
    return {
      total,
      items: page.rows.map(({ cursor_at: _, ...m }) => ({ ...m, created_at: iso(m.created_at)! })),
      next_cursor: page.next_cursor,
    };
  });

  app.post('/messages/:id/reply', { schema: { params: idParams('message'), body: ReplySchema } }, async (request) => {
    const { id } = request.params;
    const input = request.body;
    const owner = ownerOf(request);
    const message = await db.transaction(async (tx) => {
      const found = await findMessage(tx, id, true);
      if (!found) throw new AppError('not_found', `No message ${id}.`);
      await enqueueMail(tx, messageReplyMail(mail, found, input.body));
      const answered = await markAnswered(tx, id);
      await recordActivity(tx, owner, {
        action: 'reply',
        target: `message ${id}`,
        detail: `Reply to ${found.email}: ${input.body.slice(0, 200)}`,
      });
      return answered;
    });
    deps.mailQueued();
    return { ...message, created_at: iso(message.created_at)! };
  });
}
