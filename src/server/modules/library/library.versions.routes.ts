import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import type { Stored } from './library.routes.ts';
import { logDownload } from './library.service.ts';
import { findVersionDownload, upgradePatchFor } from './library.versions.service.ts';

const VersionParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  version: z.string().min(1).max(64),
});
const PatchParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  from: z.string().min(1).max(64),
});

const NOT_OWNED = 'This kit is not in your purchases (or it was refunded).';

/** A chosen version's archive, and the upgrade patch from a downloaded version to the latest. */
export function registerVersionDownloadRoutes(
  fastify: FastifyInstance,
  deps: {
    db: Database;
    storage: Storage;
    sendStored: (request: FastifyRequest, reply: FastifyReply, stored: Stored) => Promise<unknown>;
    options: RouteShorthandOptions;
  },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, storage, sendStored } = deps;

  app.get(
    '/download/:id/versions/:version',
    { ...deps.options, preValidation: signedIn, schema: { params: VersionParams } },
    async (request, reply) => {
      const user = await requireUser(request);
      const { id, version } = request.params;
      const found = await findVersionDownload(db, user.id, id, version);
      if (found === 'unknown') throw new AppError('not_found', 'We could not find that kit.');
      if (found === 'not_owned') throw new AppError('forbidden', NOT_OWNED);
      if (found === 'no_version') throw new AppError('not_found', `This kit has no version ${version}.`);
      if ('yanked' in found)
        throw new AppError('not_found', `Version ${version} was withdrawn by the seller: ${found.yanked}`);
      const v = found.version;
      return sendStored(request, reply, {
        storageKey: v.storageKey,
        sha256: v.sha256,
        filename: `${found.sefId}-${v.version}${v.format === 'tar.gz' ? '.tar.gz' : '.zip'}`,
        contentType: v.format === 'tar.gz' ? 'application/gzip' : 'application/zip',
        log: () => logDownload(db, { userId: user.id, kitId: id, versionId: v.id, ip: request.ip }),
      });
    },
  );

  app.get(
    '/download/:id/upgrade/:from',
    { ...deps.options, preValidation: signedIn, schema: { params: PatchParams } },
    async (request, reply) => {
      const user = await requireUser(request);
      const { id, from } = request.params;
      const patch = await upgradePatchFor(db, storage, user.id, id, from);
      if (patch === 'unknown') throw new AppError('not_found', `This kit has no version ${from} to upgrade from.`);
      if (patch === 'not_owned') throw new AppError('forbidden', NOT_OWNED);
      if (patch === 'not_downloaded')
        throw new AppError('forbidden', `Download version ${from} first: the patch upgrades the copy you have.`);
      if (patch === 'latest')
        throw new AppError('not_found', `${from} is the latest version: there is nothing to upgrade.`);
      return sendStored(request, reply, {
        storageKey: patch.storageKey,
        sha256: patch.sha256,
        filename: patch.filename,
        contentType: 'text/x-diff; charset=utf-8',
      });
    },
  );
}
