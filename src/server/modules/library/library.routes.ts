import path from 'node:path';
import fastifyStatic, { type SendOptions } from '@fastify/static';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import type { PurchaseRepository } from '../../../common/schemas/github.ts';
import { UpdateMailsSchema } from '../../../common/schemas/kit-versions.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { repositoryAccess } from '../github/github.service.ts';
import { findDownload, findOwnedKit, listPurchases, logDownload, setUpdateMails } from './library.service.ts';
import { registerVersionDownloadRoutes } from './library.versions.routes.ts';
import { kitChangelog } from './library.versions.service.ts';

/**
 * How `reply.sendFile` serves an archive: Range, 206/416, HEAD and Content-Length are its own; the
 * conditional requests are judged by the route against the archive's SHA-256 ETag (send's ETag is
 * made of size and mtime), and the other headers are the route's too. Reads of 128 KB: fewer,
 * larger writes to the socket.
 */
const SEND_ARCHIVE: SendOptions & { highWaterMark: number } = {
  etag: false,
  lastModified: false,
  cacheControl: false,
  contentType: false,
  highWaterMark: 128 * 1024,
};
const CONDITIONAL_HEADERS = ['if-none-match', 'if-range', 'if-match', 'if-modified-since', 'if-unmodified-since'];

/** The log entry of a download being sent, written once its status is known. */
const pendingLogs = new WeakMap<FastifyRequest, () => Promise<unknown>>();

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

type LibraryDeps = {
  db: Database;
  storage: Storage;
  /** GITHUB_WEB_URL when kits are also delivered as GitHub repositories. */
  githubWebUrl?: string;
};

export function registerLibraryRoutes(fastify: FastifyInstance, deps: LibraryDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, githubWebUrl } = deps;

  /** Per kit id, its repository and where the user's access stands (none when GitHub delivery is off). */
  const repositoriesOf = async (userId: number) => {
    if (!githubWebUrl) return new Map<number, PurchaseRepository>();
    const access = await repositoryAccess(db, userId, githubWebUrl);
    return new Map(access.repositories.map(({ kit_id, ...repository }) => [kit_id, repository]));
  };

  app.post('/api/purchases', async (request) => {
    const user = await requireUser(request);
    const [items, repositories] = await Promise.all([listPurchases(db, user.id), repositoriesOf(user.id)]);
    return { items: items.map((item) => ({ ...item, repository: repositories.get(item.id) ?? null })) };
  });

  // The purchased item's setup guide: 401 signed out, 403 for a kit the user does not own.
  app.post('/api/item/:sefid', { preValidation: signedIn, schema: { params: SefIdParamsSchema } }, async (request) => {
    const user = await requireUser(request);
    const { sefid } = request.params;
    const kit = await findOwnedKit(db, user.id, sefid);
    if (kit === 'unknown') throw new AppError('not_found', 'We could not find that kit.');
    if (kit === 'not_owned') throw new AppError('forbidden', 'This kit is not in your purchases.');
    const detail = { title: kit.title, spot: kit.spot, setup: kit.setupHtml };
    if (!githubWebUrl) return detail;
    return { ...detail, repository: (await repositoriesOf(user.id)).get(kit.id) ?? null };
  });

  // The item page's changelog: every version's notes, the buyer's downloads, upgrade patches.
  app.post(
    '/api/item/:sefid/changelog',
    { preValidation: signedIn, schema: { params: SefIdParamsSchema } },
    async (request) => {
      const user = await requireUser(request);
      const { sefid } = request.params;
      const changelog = await kitChangelog(db, user.id, sefid);
      if (changelog === 'unknown') throw new AppError('not_found', 'We could not find that kit.');
      if (changelog === 'not_owned') throw new AppError('forbidden', 'This kit is not in your purchases.');
      return changelog;
    },
  );

  // One switch for the mail about new versions of every kit the buyer owns.
  app.post(
    '/api/library/update-mails',
    { preValidation: signedIn, schema: { body: UpdateMailsSchema } },
    async (request) => {
      const user = await requireUser(request);
      const { enabled } = request.body;
      await setUpdateMails(db, user.id, enabled);
      return { update_mails: enabled };
    },
  );

  // `reply.sendFile` for the download alone (the web app's static files do not decorate the reply).
  app.register(async (scope) => {
    await scope.register(fastifyStatic, { serve: false });
    registerDownloadRoute(scope, deps);
  });
}

const NOT_OWNED = 'This kit is not in your purchases (or it was refunded).';

export type Stored = {
  storageKey: string;
  sha256: string;
  filename: string;
  contentType: string;
  /** Records the download (an archive's); absent for what is not counted (a patch). */
  log?: () => Promise<unknown>;
};

/** Download routes: Range and conditional requests, logged once per whole download, never compressed. */
const downloadOptions = (app: FastifyInstance) => ({
  compress: false as const,
  // A download is logged once: not again for a resumed one (a range from past the start), nor a HEAD.
  onSend: async (request: FastifyRequest, reply: FastifyReply) => {
    const range = String(reply.getHeader('content-range'));
    const whole = reply.statusCode === 200 || (reply.statusCode === 206 && range.startsWith('bytes 0-'));
    const log = pendingLogs.get(request);
    if (request.method === 'GET' && whole && log) await log();
  },
  // send's 416 with its Content-Range, in the shop's words and without the archive's headers.
  errorHandler: (
    error: FastifyError & { headers?: Record<string, string> },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    if (error.statusCode !== 416) return app.errorHandler(error, request, reply);
    reply.headers(error.headers ?? {});
    reply.removeHeader('content-disposition');
    reply.removeHeader('content-type');
    return reply.status(416).send({ message: 'That byte range is not in the file.' });
  },
});

/** The newest archive of a kit the user owns, streamed from storage; never compressed on the fly. */
function registerDownloadRoute(scope: FastifyInstance, { db, storage }: { db: Database; storage: Storage }): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  /** Hands a stored private object to its owner: streamed locally (Range, ETag), or a signed redirect. */
  async function sendStored(request: FastifyRequest, reply: FastifyReply, stored: Stored) {
    const { filename } = stored;
    const object = await storage.privateDownload(stored.storageKey, { filename, contentType: stored.contentType });
    if (!object) {
      request.log.error({ key: stored.storageKey }, 'kit file missing from storage');
      throw new AppError('not_found', 'This download is not available right now. Please contact support.');
    }
    if (object.kind === 'redirect') {
      // Remote storage answers the bytes (with Range and ETag) at a link that expires within minutes.
      await stored.log?.();
      return reply.header('cache-control', 'no-store').redirect(object.url, 302);
    }
    const etag = `"${stored.sha256}"`;
    reply.header('accept-ranges', 'bytes').header('etag', etag).header('cache-control', 'private, no-cache');
    const conditions = request.raw.headers;
    if (conditions['if-none-match'] === etag) return reply.status(304).send();
    // A range is served only for the archive it was asked of; send then sees the Range alone.
    const rangeFresh = conditions['if-range'] === undefined || conditions['if-range'] === etag;
    for (const name of CONDITIONAL_HEADERS) delete conditions[name];
    if (stored.log) pendingLogs.set(request, stored.log);
    reply
      .header('content-type', stored.contentType)
      .header('content-disposition', `attachment; filename="${filename}"`);
    return reply.sendFile(path.basename(object.path), path.dirname(object.path), {
      ...SEND_ARCHIVE,
      acceptRanges: rangeFresh,
    });
  }

  registerVersionDownloadRoutes(app, { db, storage, sendStored, options: downloadOptions(app) });

  app.get(
    '/download/:id',
    { ...downloadOptions(app), preValidation: signedIn, schema: { params: IdParams } },
    async (request, reply) => {
      const user = await requireUser(request);
      const { id } = request.params;
      const kit = await findDownload(db, user.id, id);
      if (kit === 'unknown') throw new AppError('not_found', 'We could not find that kit.');
      if (kit === 'not_owned') throw new AppError('forbidden', NOT_OWNED);
      const { version } = kit;
      if (!version) throw new AppError('not_found', 'This kit has no downloadable version yet.');
      return sendStored(request, reply, {
        storageKey: version.storageKey,
        sha256: version.sha256,
        filename: `${kit.sefId}-${version.version}${version.format === 'tar.gz' ? '.tar.gz' : '.zip'}`,
        contentType: version.format === 'tar.gz' ? 'application/gzip' : 'application/zip',
        log: () => logDownload(db, { userId: user.id, kitId: id, versionId: version.id, ip: request.ip }),
      });
    },
  );
}
