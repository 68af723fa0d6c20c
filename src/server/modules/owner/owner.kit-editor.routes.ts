import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type EditableKit,
  fieldMessages,
  KitCreateSchema,
  KitEditSchema,
  SCREENSHOT_MAX_BYTES,
  SEF_ID_TEXT,
  type UploadedScreenshot,
} from '../../../common/schemas/kit-editor.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { renderMarkdown } from '../../lib/html.ts';
import {
  createKit,
  describeKitChanges,
  editableFields,
  findEditableKit,
  KitEditRefused,
  saveKit,
  storeScreenshot,
} from '../catalog/catalog.editor.service.ts';
import type { OwnerOf } from './owner.params.ts';
import { recordActivity } from './owner.service.ts';

/** A whole kit with its documentation may be larger than the shop's usual JSON body. */
const KIT_BODY_LIMIT = 8 * 1024 * 1024;

const PreviewSchema = z.object({ markdown: z.string().max(200_000, 'At most 200000 characters.') });

/** The 422 of a form to correct: the first problem as the message, every field's message by path. */
const refuse = (reply: FastifyReply, fields: Record<string, string>) =>
  reply.status(422).send({ message: new KitEditRefused(fields).message, fields });

const sefParam = (request: FastifyRequest) => {
  const raw = String((request.params as { sefId: string }).sefId);
  if (!SEF_ID_TEXT.test(raw) || raw.length > 100) throw new AppError('not_found', `No kit ${raw.slice(0, 40)}.`);
  return raw;
};

/**
 * The kit editor (inside the owner scope: signed in, owner, CSRF): read a kit as the form edits
 * it, save it whole, create one, upload its screenshots, preview Markdown. Every change is written
 * to the activity log in its transaction; the catalog is dropped on every server at commit.
 */
export function registerKitEditorRoutes(
  scope: FastifyInstance,
  deps: { db: Database; config: Config; storage: Storage; ownerOf: OwnerOf; catalogChanged: () => void },
): void {
  const { db, config, ownerOf } = deps;
  const options = { paddle: config.paymentProvider === 'paddle', githubDelivery: Boolean(config.github) };
  const answer = (row: Parameters<typeof editableFields>[0]): EditableKit => ({
    ...editableFields(row),
    github_delivery: options.githubDelivery,
    paddle: options.paddle,
  });

  // Its own plugin, so multipart parsing (and its limits) exists for these routes only.
  scope.register(async (editor) => {
    await editor.register(fastifyMultipart, {
      limits: { fileSize: SCREENSHOT_MAX_BYTES, files: 1, fields: 2, parts: 3, headerPairs: 100 },
    });

    editor.get('/kits/:sefId', async (request): Promise<EditableKit> => {
      const sefId = sefParam(request);
      const row = await findEditableKit(db, sefId);
      if (!row) throw new AppError('not_found', `No kit ${sefId}.`);
      return answer(row);
    });

    editor.put('/kits/:sefId', { bodyLimit: KIT_BODY_LIMIT }, async (request, reply) => {
      const sefId = sefParam(request);
      const parsed = KitEditSchema.safeParse(request.body ?? {});
      if (!parsed.success) return refuse(reply, fieldMessages(parsed.error));
      const owner = ownerOf(request);
      try {
        const saved = await db.transaction(async (tx) => {
          const row = await findEditableKit(tx, sefId, { lock: true });
          if (!row) throw new AppError('not_found', `No kit ${sefId}.`);
          const before = editableFields(row);
          const after = await saveKit(tx, row, parsed.data, options);
          await recordActivity(tx, owner, {
            action: 'edit kit',
            target: `kit ${row.id}`,
            detail: `${after.title}: ${describeKitChanges(before, parsed.data)}`,
          });
          return after;
        });
        deps.catalogChanged();
        return answer(saved);
      } catch (error) {
        if (error instanceof KitEditRefused) return refuse(reply, error.fields);
        throw error;
      }
    });

    editor.post('/kits', async (request, reply) => {
      const parsed = KitCreateSchema.safeParse(request.body ?? {});
      if (!parsed.success) return refuse(reply, fieldMessages(parsed.error));
      const owner = ownerOf(request);
      try {
        const created = await db.transaction(async (tx) => {
          const row = await createKit(tx, parsed.data);
          await recordActivity(tx, owner, {
            action: 'create kit',
            target: `kit ${row.id}`,
            detail: `${row.title} (${row.sefId}), $${parsed.data.price}, hidden until its page is complete`,
          });
          return row;
        });
        deps.catalogChanged();
        return reply.status(201).send(answer(created));
      } catch (error) {
        if (error instanceof KitEditRefused) return refuse(reply, error.fields);
        throw error;
      }
    });

    editor.post('/kits/:sefId/screenshots', async (request): Promise<UploadedScreenshot> => {
      const sefId = sefParam(request);
      if (!(await findEditableKit(db, sefId))) throw new AppError('not_found', `No kit ${sefId}.`);
      if (!request.isMultipart()) throw new AppError('bad_request', 'Send the image as multipart/form-data.');
      const file = await request.file();
      if (!file) throw new AppError('invalid_data', 'file: Choose an image to upload.');
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('invalid_data', 'file: The image is larger than 5 MB.');
        throw error;
      }
      const stored = await storeScreenshot(deps.storage, sefId, bytes);
      if (!stored) throw new AppError('invalid_data', 'file: Upload a PNG, JPEG or WebP image.');
      return stored;
    });

    editor
      .withTypeProvider<ZodTypeProvider>()
      .post('/markdown-preview', { schema: { body: PreviewSchema } }, async (request) => {
        const { markdown } = request.body;
        return { html: renderMarkdown(markdown) };
      });
  });
}
