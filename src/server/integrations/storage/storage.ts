import { randomUUID } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.ts';

/** How a private object (a kit archive) reaches its buyer. */
export type PrivateDownload =
  /** A local file the server streams itself (with Range and ETag). */
  | { kind: 'file'; path: string; size: number }
  /** A short-lived signed address the browser is redirected to. */
  | { kind: 'redirect'; url: string; expiresInSeconds: number };

/** A public object (a screenshot) read from remote storage. */
export type PublicObject = { body: Readable; size?: number; contentType?: string };

/** Public media or private kit archives. */
export type StorageArea = 'public' | 'private';

/**
 * Where kit files live: a local folder by default, S3-compatible object storage when the `S3_*`
 * settings are given. Public media (screenshots) are served at `{base}/media/<key>`; private
 * objects (kit archives) only ever reach an owner through `/download/{id}`. Keys are
 * content-addressed, so a stored object never changes and a put of an existing key is skipped.
 */
export type Storage = {
  /** Stores a file under `key` unless an object with that key already exists. */
  putPublicFile(key: string, sourceFile: string): Promise<void>;
  /** Stores a private object (a kit archive) under `key` unless it exists. */
  putPrivate(key: string, bytes: Uint8Array): Promise<void>;
  /** Stores a private object from a file on disk, streamed (an uploaded archive), unless it exists. */
  putPrivateFile(key: string, sourceFile: string, contentType: string): Promise<void>;
  /** Reads a private object as a stream (an archive to diff); null when it is missing. */
  readPrivateStream(key: string): Promise<Readable | null>;
  /** Removes a private object (an upload whose publishing failed); a missing one is no error. */
  deletePrivate(key: string): Promise<void>;
  /** How to hand a private object to its owner; null when the object is missing. */
  privateDownload(key: string, as: { filename: string; contentType: string }): Promise<PrivateDownload | null>;
  /** Every stored object's area and key (backups). */
  listObjects(): AsyncIterable<{ area: StorageArea; key: string }>;
  /** An object's bytes; null when it does not exist (backups). */
  readObject(area: StorageArea, key: string): Promise<Uint8Array | null>;
  /** Stores bytes under `key` unless it exists (restores). */
  writeObject(area: StorageArea, key: string, bytes: Uint8Array): Promise<void>;
} & (
  | {
      /** The folder that holds public media when it is local (served by the static handler). */
      readonly publicDir: string;
      readPublic?: undefined;
    }
  | {
      readonly publicDir?: undefined;
      /** Reads a public object from remote storage; null when it does not exist. */
      readPublic(key: string): Promise<PublicObject | null>;
    }
);

/** Storage whose public media are read through the shop (S3). */
export type RemoteStorage = Extract<Storage, { readPublic(key: string): unknown }>;

/** Signed download links expire this fast: long enough to start, too short to share. */
export const SIGNED_URL_SECONDS = 300;

/** Storage keys are relative paths of safe characters; anything else is refused. */
export function isStorageKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) && !key.split('/').some((part) => part === '..' || part === '');
}

/** The configured storage. The S3 client is loaded only when S3 is configured (it is large). */
export async function openStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return createLocalStorage(config.dataDir);
  const { createS3Storage } = await import('./s3.ts');
  return createS3Storage(config.s3);
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

export function createLocalStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'files');
  const publicDir = path.join(root, 'public');
  const privateDir = path.join(root, 'private');
  const inside = (dir: string, key: string) => {
    if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(dir, key);
  };
  // Write to a temporary name and rename, so a reader never sees half a file.
  const writeOnce = async (target: string, write: (temporary: string) => Promise<void>) => {
    if (await exists(target)) return;
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Its own name per write: two writes of one key at once (a double click) each rename a whole file.
    const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
    await write(temporary);
    await fs.rename(temporary, target);
  };
  const areaDir = (area: StorageArea) => (area === 'public' ? publicDir : privateDir);
  async function* walk(area: StorageArea, dir: string): AsyncGenerator<{ area: StorageArea; key: string }> {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(area, full);
      else if (entry.isFile() && !entry.name.endsWith('.tmp'))
        yield { area, key: path.relative(areaDir(area), full).split(path.sep).join('/') };
    }
  }
  return {
    publicDir,
    async *listObjects() {
      yield* walk('public', publicDir);
      yield* walk('private', privateDir);
    },
    async readObject(area, key) {
      try {
        return await fs.readFile(inside(areaDir(area), key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    writeObject: (area, key, bytes) =>
      writeOnce(inside(areaDir(area), key), (temporary) => fs.writeFile(temporary, bytes)),
    putPublicFile: (key, sourceFile) =>
      writeOnce(inside(publicDir, key), async (temporary) => {
        await pipeline(createReadStream(sourceFile), (await fs.open(temporary, 'w')).createWriteStream());
      }),
    putPrivate: (key, bytes) => writeOnce(inside(privateDir, key), (temporary) => fs.writeFile(temporary, bytes)),
    putPrivateFile: (key, sourceFile) =>
      writeOnce(inside(privateDir, key), async (temporary) => {
        await pipeline(createReadStream(sourceFile), (await fs.open(temporary, 'w')).createWriteStream());
      }),
    async readPrivateStream(key) {
      const file = inside(privateDir, key);
      if (!(await exists(file))) return null;
      return createReadStream(file);
    },
    async deletePrivate(key) {
      await fs.rm(inside(privateDir, key), { force: true });
    },
    async privateDownload(key) {
      const file = inside(privateDir, key);
      try {
        return { kind: 'file', path: file, size: (await fs.stat(file)).size };
      } catch {
        return null;
      }
    },
  };
}
