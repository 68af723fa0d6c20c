import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where kit files live. Public media (screenshots) are served at `{base}/media/<key>`;
 * the local adapter keeps them in `DATA_DIR/files/public`. Keys are content-addressed, so a stored
 * object never changes and can be cached forever.
 */
export interface Storage {
  /** Stores a file under `key` unless an object with that key already exists. */
  putPublicFile(key: string, sourceFile: string): Promise<void>;
  publicDir: string;
  /** Stores a private object (a kit archive) under `key` unless it exists. */
  putPrivate(key: string, bytes: Uint8Array): Promise<void>;
  /** The local path of a private object, for streaming it. */
  privatePath(key: string): string;
}

export function createLocalStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'files');
  const publicDir = path.join(root, 'public');
  const privateDir = path.join(root, 'private');
  const inside = (dir: string, key: string) => {
    const target = path.join(dir, key);
    if (!target.startsWith(dir + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return target;
  };
  return {
    publicDir,
    privatePath: (key) => inside(privateDir, key),
    async putPrivate(key, bytes) {
      const target = inside(privateDir, key);
      try {
        await fs.access(target);
        return;
      } catch {}
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, target);
    },
    async putPublicFile(key, sourceFile) {
      const target = path.join(publicDir, key);
      if (!target.startsWith(publicDir + path.sep)) throw new Error(`Invalid storage key: ${key}`);
      try {
        await fs.access(target);
        return;
      } catch {}
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Write to a temporary name and rename, so a reader never sees half a file.
      const temporary = `${target}.${process.pid}.tmp`;
      await pipeline(createReadStream(sourceFile) as Readable, (await fs.open(temporary, 'w')).createWriteStream());
      await fs.rename(temporary, target);
    },
  };
}
