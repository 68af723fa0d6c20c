import type { Readable } from 'node:stream';
import {
  type ArchiveEntry,
  type ArchiveFormat,
  ArchiveTooLargeError,
  UnreadableArchiveError,
  walkArchive,
  walkTarGz,
} from '../../lib/archive-reader.ts';

/**
 * The rules an archive passes before it is published: nothing outside the kit's folder, no links,
 * no device files, bounded entries and unpacked bytes (counted from the bodies as they inflate: a
 * zip bomb's headers lie), and a single top-level folder named as the kit's guides expect
 * (`unzip <sef>-<version>.zip && cd <sef>-<version>`). Nothing is written anywhere.
 */

export const ARCHIVE_LIMITS = { entries: 20_000, unpackedBytes: 1024 ** 3 };
export type ArchiveLimits = typeof ARCHIVE_LIMITS;

/** Why an archive was refused, in words for its uploader. */
export class ArchiveRejectedError extends Error {}

export type ArchiveSummary = { entries: number; unpackedBytes: number };

/** An entry's path split into segments, or why it is not a path inside the archive. */
export function entrySegments(name: string): string[] | string {
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) return `absolute path ${name}`;
  if (slashed.includes('\0')) return `a name with a NUL byte`;
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return `path outside the kit's folder ${name}`;
  if (segments.length === 0) return `an entry without a name`;
  return segments;
}

const describe = (entry: ArchiveEntry) =>
  ({ symlink: 'a symbolic link', hardlink: 'a hard link', device: 'a device file' })[
    entry.kind as 'symlink' | 'hardlink' | 'device'
  ] ?? 'an entry of an unsupported type';

/**
 * Checks every rule, streaming: stops at the first broken one with an ArchiveRejectedError.
 * `source` is a file path (zip or tar.gz) or, for tar.gz, a stream.
 */
export async function checkArchive(
  source: string | Readable,
  format: ArchiveFormat,
  expectedRoot: string,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<ArchiveSummary> {
  let entries = 0;
  let unpackedBytes = 0;
  let declaredBytes = 0;
  const tooLarge = () =>
    new ArchiveRejectedError(
      `The archive unpacks to more than ${Math.round(limits.unpackedBytes / 1024 ** 2)} MB (the limit).`,
    );
  const visit = async (entry: ArchiveEntry, body: Readable | null) => {
    entries++;
    if (entries > limits.entries)
      throw new ArchiveRejectedError(`The archive has more than ${limits.entries.toLocaleString('en-US')} entries.`);
    const segments = entrySegments(entry.name);
    if (typeof segments === 'string') throw new ArchiveRejectedError(`The archive has ${segments}.`);
    if (entry.kind !== 'file' && entry.kind !== 'directory')
      throw new ArchiveRejectedError(
        `The archive has ${describe(entry)}: ${entry.name}. Links and devices are refused.`,
      );
    if (segments.length === 1 && entry.kind === 'file')
      throw new ArchiveRejectedError(
        `Everything in the archive must sit in one folder named ${expectedRoot}/ (found the file ${entry.name}).`,
      );
    if (segments[0] !== expectedRoot)
      throw new ArchiveRejectedError(
        `Everything in the archive must sit in one folder named ${expectedRoot}/ (found ${entry.name}).`,
      );
    if (!body) return;
    declaredBytes += entry.declaredSize;
    if (declaredBytes > limits.unpackedBytes) throw tooLarge();
    try {
      for await (const chunk of body) {
        unpackedBytes += (chunk as Buffer).length;
        if (unpackedBytes > limits.unpackedBytes) {
          body.destroy();
          throw tooLarge();
        }
      }
    } catch (error) {
      if (error instanceof ArchiveRejectedError) throw error;
      // The body did not inflate to the size its headers claim, or not at all.
      throw new ArchiveRejectedError(
        `The archive is damaged or its sizes lie (${entry.name}: ${(error as Error).message}).`,
      );
    }
  };
  try {
    if (typeof source === 'string') await walkArchive(source, format, visit, gunzipBound(limits));
    else await walkTarGz(source, visit, gunzipBound(limits));
  } catch (error) {
    if (error instanceof ArchiveRejectedError) throw error;
    if (error instanceof ArchiveTooLargeError) throw tooLarge();
    if (error instanceof UnreadableArchiveError)
      throw new ArchiveRejectedError(
        `The file is not a readable ${format === 'zip' ? '.zip' : '.tar.gz'} archive (it may be truncated or corrupt).`,
      );
    throw error;
  }
  if (entries === 0) throw new ArchiveRejectedError('The archive is empty.');
  return { entries, unpackedBytes };
}

/** What a tar stream within the limits can inflate to: the bodies, plus a header and padding per entry. */
export const gunzipBound = (limits: ArchiveLimits) => limits.unpackedBytes + (limits.entries + 4) * 1536;
