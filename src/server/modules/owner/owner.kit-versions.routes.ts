import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import {
  ARCHIVE_MAX_BYTES,
  type GithubReleaseChoice,
  GithubReleaseImportSchema,
  type OwnerKitVersions,
  PublishFieldsSchema,
  YankSchema,
} from '../../../common/schemas/kit-versions.ts';
import type { Database } from '../../db/open.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { MailContext } from '../../integrations/mail/templates.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { archiveFormatOf } from '../../lib/archive-reader.ts';
import { saveToTempFile, type TempUpload } from '../../lib/temp-upload.ts';
import {
  findVersionKit,
  listKitVersions,
  publishVersion,
  type VersionKit,
  versionProblem,
  yankVersion,
} from '../catalog/catalog.versions.service.ts';
import { fetchGithubRelease, type GithubReleases, listGithubReleases } from '../catalog/github-releases.service.ts';
import { downloadsByVersion } from '../library/library.service.ts';
import type { OwnerOf } from './owner.params.ts';
import { recordActivity } from './owner.service.ts';

/** The path names the kit `sefId`: it is checked (and named in a refusal) as the catalog's `sefid`. */
const KitPathSchema = z
  .object({ sefId: z.string() })
  .transform(({ sefId }) => ({ sefid: sefId }))
  .pipe(SefIdParamsSchema);
const VersionPathSchema = z
  .object({ sefId: z.string(), version: z.string() })
  .transform(({ sefId, version }) => ({ sefid: sefId, version }))
  .pipe(SefIdParamsSchema.extend({ version: z.string() }));

export type KitVersionDeps = {
  db: Database;
  storage: Storage;
  mail: MailContext;
  ownerOf: OwnerOf;
  mailQueued: () => void;
  catalogChanged: () => void;
  /** GitHub's API when delivery is configured: Import Release lists and fetches releases there. */
  github?: GithubReleases;
};

/**
 * A kit's versions in the owner console (inside the owner scope): the list, Publish Version (a
 * multipart upload streamed to a temporary file, never to memory), Yank, and Import Release from
 * GitHub. Multipart is registered here only, in this plugin's own encapsulation.
 */
export function registerKitVersionRoutes(scope: FastifyInstance, deps: KitVersionDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, storage, ownerOf } = deps;

  const kitOf = async (sefid: string): Promise<VersionKit> => {
    const kit = await findVersionKit(db, sefid);
    if (!kit) throw new AppError('not_found', `No kit ${sefid}.`);
    return kit;
  };

  async function versionsAnswer(kit: VersionKit): Promise<OwnerKitVersions> {
    const [versions, counts] = await Promise.all([listKitVersions(db, kit.id), downloadsByVersion(db, kit.id)]);
    return {
      kit: { id: kit.id, sef_id: kit.sefId, title: kit.title, github_repository: kit.githubRepository },
      github_releases: Boolean(deps.github && kit.githubRepository),
      versions: versions.map((v) => ({
        id: v.id,
        version: v.version,
        released_on: v.releasedOn,
        published_at: v.createdAt.toISOString(),
        size: v.sizeBytes,
        sha256: v.sha256,
        format: v.format,
        downloads: counts.get(v.id) ?? 0,
        yanked_at: v.yankedAt?.toISOString() ?? null,
        yank_reason: v.yankReason,
      })),
    };
  }

  const publish = async (
    request: FastifyRequest,
    kit: VersionKit,
    fields: { version: string; notes: string; idempotency_key: string },
    upload: TempUpload & { format: 'zip' | 'tar.gz' },
    source: string,
  ) => {
    const owner = ownerOf(request);
    const outcome = await publishVersion(
      db,
      storage,
      deps.mail,
      {
        kit,
        version: fields.version,
        notes: fields.notes,
        idempotencyKey: fields.idempotency_key,
        upload: { file: upload.file, format: upload.format, sha256: upload.sha256, sizeBytes: upload.sizeBytes },
      },
      (tx, version) =>
        recordActivity(tx, owner, {
          action: 'publish version',
          target: `kit ${kit.id}`,
          detail: `${kit.title} ${version.version} published ${source}`,
        }),
    );
    if (outcome.created) {
      deps.mailQueued();
      deps.catalogChanged();
    }
    return { created: outcome.created, version: outcome.version.version, ...(await versionsAnswer(kit)) };
  };

  app.get('/kits/:sefId/versions', { schema: { params: KitPathSchema } }, async (request) =>
    versionsAnswer(await kitOf(request.params.sefid)),
  );

  // The body is read after the kit is found: an unknown kit is a 404 whatever was sent.
  app.post('/kits/:sefId/versions/:version/yank', { schema: { params: VersionPathSchema } }, async (request) => {
    const kit = await kitOf(request.params.sefid);
    const { reason } = parseInput(YankSchema, request.body);
    const version = request.params.version.slice(0, 64);
    const owner = ownerOf(request);
    const outcome = await db.transaction(async (tx) => {
      const result = await yankVersion(tx, kit.id, version, reason);
      if (result === 'yanked')
        await recordActivity(tx, owner, {
          action: 'yank version',
          target: `kit ${kit.id}`,
          detail: `${kit.title} ${version} withdrawn: ${reason}`,
        });
      return result;
    });
    if (outcome === 'unknown') throw new AppError('not_found', `${kit.title} has no version ${version}.`);
    if (outcome === 'yanked') deps.catalogChanged();
    return versionsAnswer(kit);
  });

  // Multipart for this plugin alone: nothing else in the shop accepts uploads this large.
  scope.register(async (plugin) => {
    const uploads = plugin.withTypeProvider<ZodTypeProvider>();
    await uploads.register(multipart, {
      limits: { fileSize: ARCHIVE_MAX_BYTES, files: 1, fields: 5, fieldSize: 64 * 1024, parts: 8 },
    });
    uploads.post('/kits/:sefId/versions', { schema: { params: KitPathSchema } }, async (request) => {
      const kit = await kitOf(request.params.sefid);
      if (!request.isMultipart())
        throw new AppError('bad_request', 'Send the form as multipart/form-data with the archive.');
      const fields: Record<string, string> = {};
      let upload: (TempUpload & { format: 'zip' | 'tar.gz' }) | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            fields[part.fieldname] = String(part.value);
            continue;
          }
          const format = archiveFormatOf(part.filename);
          if (part.fieldname !== 'archive' || upload || !format) {
            part.file.resume();
            if (part.fieldname === 'archive' && !format)
              throw new AppError('invalid_data', 'archive: upload a .zip or .tar.gz file.');
            continue;
          }
          upload = { ...(await saveToTempFile(part.file, format === 'zip' ? '.zip' : '.tar.gz')), format };
          if (part.file.truncated)
            throw new AppError('invalid_data', `archive: the file is larger than ${ARCHIVE_MAX_BYTES / 1024 ** 2} MB.`);
        }
        const input = parseInput(PublishFieldsSchema, fields);
        if (!upload) throw new AppError('invalid_data', 'archive: choose a .zip or .tar.gz file to upload.');
        if (upload.sizeBytes === 0) throw new AppError('invalid_data', 'archive: the file is empty.');
        return await publish(request, kit, input, upload, 'from an uploaded archive');
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('invalid_data', `archive: the file is larger than ${ARCHIVE_MAX_BYTES / 1024 ** 2} MB.`);
        if (code?.startsWith('FST_') && (error as { statusCode?: number }).statusCode === 413)
          throw new AppError('invalid_data', 'The form has too many fields or files.');
        // A browser that went away mid-upload, or a form cut short: nothing was published.
        if (
          !(error instanceof AppError) &&
          (request.raw.destroyed || /Unexpected end of (form|multipart)/i.test(String(error)))
        )
          throw new AppError('bad_request', 'The upload was interrupted before it ended. Nothing was published.');
        throw error;
      } finally {
        await upload?.remove();
      }
    });
  });

  app.get('/kits/:sefId/github-releases', { schema: { params: KitPathSchema } }, async (request) => {
    const kit = await kitOf(request.params.sefid);
    const github = requireGithub(kit);
    const [releases, versions] = await Promise.all([
      listGithubReleases(github, kit.githubRepository!),
      listKitVersions(db, kit.id),
    ]);
    const existing = versions.map((v) => v.version);
    return releases.map(
      (release): GithubReleaseChoice => ({
        ...release,
        problem: release.version
          ? (versionProblem(release.version, existing)?.replace(/^version: /, '') ?? null)
          : 'its tag is not a semantic version',
      }),
    );
  });

  // The body is read after the kit and GitHub delivery are found: either missing is a 404 whatever was sent.
  app.post('/kits/:sefId/github-releases', { schema: { params: KitPathSchema } }, async (request) => {
    const kit = await kitOf(request.params.sefid);
    const github = requireGithub(kit);
    const input = parseInput(GithubReleaseImportSchema, request.body);
    const release = await fetchGithubRelease(github, kit.githubRepository!, input.tag, kit.sefId);
    try {
      return await publish(
        request,
        kit,
        { version: release.version, notes: release.notes, idempotency_key: input.idempotency_key },
        { ...release.upload, format: 'tar.gz' },
        `from GitHub release ${input.tag}`,
      );
    } finally {
      await release.upload.remove();
    }
  });

  function requireGithub(kit: VersionKit): GithubReleases {
    if (!deps.github) throw new AppError('not_found', 'GitHub delivery is not configured.');
    if (!kit.githubRepository)
      throw new AppError('not_found', `${kit.title} is not delivered from a GitHub repository.`);
    return deps.github;
  }
}
