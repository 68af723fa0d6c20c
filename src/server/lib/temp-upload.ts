import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type TempUpload = { file: string; sha256: string; sizeBytes: number; remove: () => Promise<void> };

/**
 * Streams an upload (a multipart file, a downloaded tarball) to a temporary file while hashing it
 * with SHA-256: the bytes are never held in memory, whatever their size. The caller removes it.
 */
export async function saveToTempFile(source: Readable, suffix: string): Promise<TempUpload> {
  const dir = await fs.mkdtemp(path.join(tmpdir(), 'kitshop-upload-'));
  const file = path.join(dir, `${randomUUID()}${suffix}`);
  const remove = () => fs.rm(dir, { recursive: true, force: true });
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, hashing, createWriteStream(file));
  } catch (error) {
    await remove();
    throw error;
  }
  return { file, sha256: hash.digest('hex'), sizeBytes, remove };
}
