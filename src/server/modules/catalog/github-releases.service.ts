import { once } from 'node:events';
import { Transform, type Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { ARCHIVE_MAX_BYTES } from '../../../common/schemas/kit-versions.ts';
import { AppError } from '../../http/errors.ts';
import {
  fetchReleases,
  fetchTarball,
  GithubReleaseError,
  type GithubReleases,
} from '../../integrations/github/releases.ts';
import { walkTarGz } from '../../lib/archive-reader.ts';
import { saveToTempFile, type TempUpload } from '../../lib/temp-upload.ts';
import { ARCHIVE_LIMITS, gunzipBound } from './archive-checks.ts';
import { archiveRoot } from './catalog.read.ts';
import { cleanVersion } from './catalog.versions.service.ts';

export type { GithubReleases };

const githubFailed = (error: unknown): never => {
  if (error instanceof GithubReleaseError)
    throw new AppError(error.status === 404 ? 'not_found' : 'conflict', `${error.message} Try again in a moment.`);
  throw error;
};

/** A repository's releases as choices: tag, title, day, and the version each would publish. */
export async function listGithubReleases(github: GithubReleases, repository: string) {
  const releases = await fetchReleases(github, repository).catch(githubFailed);
  return releases.map((r) => ({
    tag: r.tag_name,
    name: r.name || r.tag_name,
    published_at: r.published_at,
    version: cleanVersion(r.tag_name),
  }));
}

/**
 * One release ready to publish: its tag as the version, its body as the notes, and its tarball
 * re-packed (streamed) with GitHub's top folder `{owner}-{repo}-{sha}/` renamed to the folder the
 * kit's guides expect. The archive checks run afterwards, as for an upload.
 */
export async function fetchGithubRelease(
  github: GithubReleases,
  repository: string,
  tag: string,
  sefId: string,
): Promise<{ version: string; notes: string; upload: TempUpload }> {
  const releases = await fetchReleases(github, repository).catch(githubFailed);
  const release = releases.find((r) => r.tag_name === tag);
  if (!release) throw new AppError('not_found', `${repository} has no release ${tag}.`);
  const version = cleanVersion(tag);
  if (!version) throw new AppError('invalid_data', `version: the tag ${tag} is not a semantic version.`);
  const notes = (release.body ?? '').trim() || `Release ${tag}.`;
  const tarball = await fetchTarball(github, repository, tag).catch(githubFailed);
  let downloaded = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      downloaded += chunk.length;
      if (downloaded > ARCHIVE_MAX_BYTES)
        done(
          new AppError(
            'invalid_data',
            `archive: the release's tarball is larger than ${ARCHIVE_MAX_BYTES / 1024 ** 2} MB.`,
          ),
        );
      else done(null, chunk);
    },
  });
  const root = archiveRoot(sefId, version);
  const pack = tarPack();
  const gzip = createGzip();
  const saving = saveToTempFile(pack.pipe(gzip), '.tar.gz');
  try {
    await walkTarGz(
      tarball.pipe(bounded),
      async (entry, body) => {
        const parts = entry.name.split('/');
        // Only the first segment is renamed; anything odd stays as it is for the checks to refuse.
        const name =
          parts.length > 1 && parts[0] && parts[0] !== '..' ? [root, ...parts.slice(1)].join('/') : entry.name;
        if (entry.kind === 'symlink' || entry.kind === 'hardlink')
          throw new AppError('invalid_data', `archive: The release has a link: ${name}. Links are refused.`);
        if (entry.kind !== 'file' && entry.kind !== 'directory')
          throw new AppError('invalid_data', `archive: The release has an entry of an unsupported type: ${name}.`);
        const type = entry.kind;
        const sink = pack.entry({
          name,
          type,
          mode: entry.mode,
          size: body ? entry.declaredSize : 0,
        }) as unknown as Writable;
        if (body) {
          for await (const chunk of body) if (!sink.write(chunk)) await once(sink, 'drain');
        }
        sink.end();
      },
      gunzipBound(ARCHIVE_LIMITS),
    );
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    await saving.then(
      (upload) => upload.remove(),
      () => {},
    );
    throw error instanceof AppError
      ? error
      : new AppError('invalid_data', `archive: the release's tarball could not be read (${(error as Error).message}).`);
  }
  return { version, notes, upload: await saving };
}
