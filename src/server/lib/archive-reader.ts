import { createReadStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import yauzl from 'yauzl';

/**
 * Walks the entries of a `.zip` or `.tar.gz` archive on disk, one at a time, without unpacking it
 * anywhere: zip by random access to its central directory (yauzl), tar.gz as one stream (zlib and
 * tar-stream). The caller sees each entry's raw name and kind, and the body of each file as a stream
 * that must be consumed (or drained) before the next entry comes.
 */

export type ArchiveFormat = 'zip' | 'tar.gz';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'other';

export type ArchiveEntry = {
  /** The name as stored (forward or back slashes, maybe absolute or with `..`: callers check). */
  name: string;
  kind: EntryKind;
  /** The unpacked size the archive claims (a zip's header may lie; count the body to know). */
  declaredSize: number;
  /** Unix permission bits when the archive keeps them. */
  mode: number;
};

export type EntryVisitor = (entry: ArchiveEntry, body: Readable | null) => Promise<void>;

/** An archive that cannot be read at all (not a zip or gzip, truncated, corrupt). */
export class UnreadableArchiveError extends Error {}

/** The format a file name says, or undefined for anything else. */
export function archiveFormatOf(filename: string): ArchiveFormat | undefined {
  const lower = filename.toLowerCase();
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  return undefined;
}

/** `gunzipLimit` bounds a tar.gz's inflated bytes as a whole (a zip's entries are bounded by their caller). */
export async function walkArchive(
  file: string,
  format: ArchiveFormat,
  visit: EntryVisitor,
  gunzipLimit?: number,
): Promise<void> {
  if (format === 'zip') return walkZip(file, visit);
  return walkTarGz(createReadStream(file), visit, gunzipLimit);
}

const S_IFMT = 0o170000;
const zipKind = (entry: yauzl.Entry, name: string): EntryKind => {
  // Unix zips keep st_mode in the high half of the external attributes (made by "3" = Unix).
  const madeByUnix = entry.versionMadeBy >> 8 === 3;
  const type = madeByUnix ? (entry.externalFileAttributes >>> 16) & S_IFMT : 0;
  if (type === 0o120000) return 'symlink';
  if (type === 0o020000 || type === 0o060000 || type === 0o010000 || type === 0o140000) return 'device';
  if (name.endsWith('/') || type === 0o040000) return 'directory';
  return 'file';
};

function walkZip(file: string, visit: EntryVisitor): Promise<void> {
  return new Promise((resolve, reject) => {
    // Names stay bytes: yauzl's own name checks would refuse `../x` with its words, not ours.
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip) return reject(new UnreadableArchiveError(`not a readable zip (${error?.message})`));
        let failed = false;
        const fail = (cause: unknown) => {
          if (failed) return;
          failed = true;
          zip.close();
          reject(cause);
        };
        zip.on('error', (cause: Error) => fail(new UnreadableArchiveError(`not a readable zip (${cause.message})`)));
        zip.on('end', () => {
          if (!failed) resolve();
        });
        zip.on('entry', (entry: yauzl.Entry) => {
          const raw = entry.fileName as unknown as Buffer;
          // Bit 11: UTF-8 names; otherwise CP437, of which ASCII (all a sane kit uses) is the same.
          const name = raw.toString((entry.generalPurposeBitFlag & 0x800) !== 0 ? 'utf8' : 'latin1');
          const kind = zipKind(entry, name);
          const described: ArchiveEntry = {
            name,
            kind,
            declaredSize: entry.uncompressedSize,
            mode: (entry.externalFileAttributes >>> 16) & 0o7777,
          };
          if (kind !== 'file') {
            visit(described, null).then(() => zip.readEntry(), fail);
            return;
          }
          zip.openReadStream(entry, (openError, stream) => {
            if (openError || !stream)
              return fail(new UnreadableArchiveError(`not a readable zip (${openError?.message})`));
            stream.on('error', () => {});
            visit(described, stream).then(
              () => {
                // The visitor may have stopped reading early; what is left is drained, never buffered.
                if (!stream.readableEnded) {
                  stream.resume();
                  stream.once('end', () => zip.readEntry());
                } else zip.readEntry();
              },
              (cause: unknown) => {
                // A refused entry's stream would hold the file open after the zip is closed.
                stream.destroy();
                fail(cause);
              },
            );
          });
        });
        zip.readEntry();
      },
    );
  });
}

const TAR_KINDS: Record<string, EntryKind> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
  'character-device': 'device',
  'block-device': 'device',
  fifo: 'device',
};

/** A tar.gz stream (a file, or GitHub's tarball as it downloads). */
export async function walkTarGz(source: Readable, visit: EntryVisitor, gunzipLimit?: number): Promise<void> {
  const extractor = tarExtract();
  let unpacked = 0;
  // Zeros after the tar's end still inflate: the gzip stream as a whole is bounded too.
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length;
      if (gunzipLimit !== undefined && unpacked > gunzipLimit) done(new ArchiveTooLargeError());
      else done(null, chunk);
    },
  });
  const consumer = (async () => {
    for await (const entry of extractor) {
      const header = entry.header;
      const kind = TAR_KINDS[header.type ?? 'file'] ?? 'other';
      await visit(
        { name: header.name, kind, declaredSize: header.size ?? 0, mode: (header.mode ?? 0o644) & 0o7777 },
        kind === 'file' ? (entry as unknown as Readable) : null,
      );
      entry.resume();
    }
  })();
  try {
    await Promise.all([pipeline(source, createGunzip(), counter, extractor), consumer]);
  } catch (error) {
    extractor.destroy();
    if (error instanceof ArchiveTooLargeError) throw error;
    if (error instanceof UnreadableArchiveError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code?.startsWith('Z_') || /tar|header|gzip|Unexpected end/i.test((error as Error).message))
      throw new UnreadableArchiveError(`not a readable .tar.gz (${(error as Error).message})`);
    throw error;
  }
}

/** The inflated stream as a whole passed its bound (a gzip bomb). */
export class ArchiveTooLargeError extends Error {}

/** Reads a whole entry body (the caller bounds its size first). */
export async function readBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
