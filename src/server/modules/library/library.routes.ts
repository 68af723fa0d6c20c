import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import type { Database } from '../../db/open.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { findDownload, findOwnedKit, listPurchases, logDownload } from './library.service.ts';

/** Read size for archive streams: fewer, larger writes to the socket (128 KB a read). */
const STREAM_CHUNK = 128 * 1024;

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** `bytes=start-end` (one range) against a size; null when absent, 'invalid' when unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

export function registerLibraryRoutes(app: FastifyInstance, deps: { db: Database; storage: Storage }): void {
  const { db, storage } = deps;

  app.post('/api/purchases', async (request) => {
    const user = await requireUser(request);
    return { items: await listPurchases(db, user.id) };
  });

  // The purchased item's setup guide: 401 signed out, 403 for a kit the user does not own.
  app.post('/api/item/:sefid', async (request) => {
    const user = await requireUser(request);
    const { sefid } = parseInput(SefIdParamsSchema, request.params, 'not_found');
    const kit = await findOwnedKit(db, user.id, sefid);
    if (kit === 'unknown') throw new AppError('not_found', 'We could not find that kit.');
    if (kit === 'not_owned') throw new AppError('forbidden', 'This kit is not in your purchases.');
    return { title: kit.title, spot: kit.spot, setup: kit.setupHtml };
  });

  // The newest archive of a kit the user owns, streamed from storage; never compressed on the fly.
  app.get('/download/:id', { compress: false }, async (request, reply) => {
    const user = await requireUser(request);
    const { id } = parseInput(IdParams, request.params, 'not_found');
    const kit = await findDownload(db, user.id, id);
    if (kit === 'unknown') throw new AppError('not_found', 'We could not find that kit.');
    if (kit === 'not_owned') throw new AppError('forbidden', 'This kit is not in your purchases (or it was refunded).');
    const { version } = kit;
    if (!version) throw new AppError('not_found', 'This kit has no downloadable version yet.');
    const filename = `${kit.sefId}-${version.version}.zip`;
    const object = await storage.privateDownload(version.storageKey, { filename, contentType: 'application/zip' });
    if (!object) {
      request.log.error({ kit: kit.sefId, key: version.storageKey }, 'kit archive missing from storage');
      throw new AppError('not_found', 'This download is not available right now. Please contact support.');
    }
    const log = () => logDownload(db, { userId: user.id, kitId: id, versionId: version.id, ip: request.ip });
    if (object.kind === 'redirect') {
      // Remote storage answers the bytes (with Range and ETag) at a link that expires within minutes.
      await log();
      return reply.header('cache-control', 'no-store').redirect(object.url, 302);
    }
    const { path: file, size } = object;
    const etag = `"${version.sha256}"`;
    reply.header('accept-ranges', 'bytes').header('etag', etag).header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    const range =
      request.headers['if-range'] && request.headers['if-range'] !== etag
        ? null
        : parseRange(request.headers.range, size);
    if (range === 'invalid') {
      return reply
        .status(416)
        .header('content-range', `bytes */${size}`)
        .send({ message: 'That byte range is not in the file.' });
    }
    // A resumed download (a range from past the start) is the same download, logged once.
    if (!range || range.start === 0) await log();
    reply.header('content-type', 'application/zip').header('content-disposition', `attachment; filename="${filename}"`);
    if (!range) {
      return reply.header('content-length', String(size)).send(createReadStream(file, { highWaterMark: STREAM_CHUNK }));
    }
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(createReadStream(file, { start: range.start, end: range.end, highWaterMark: STREAM_CHUNK }));
  });
}
