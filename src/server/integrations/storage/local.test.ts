import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from './storage.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('local storage', () => {
  it('stores one key written twice at once (a double click) whole, with no temporary file left', async () => {
    const storage = createLocalStorage(dir);
    const source = path.join(dir, 'upload.bin');
    writeFileSync(source, Buffer.alloc(256 * 1024, 7));
    await Promise.all([
      storage.putPrivateFile('archives/kit/kit-1.0.0.zip', source, 'application/zip'),
      storage.putPrivateFile('archives/kit/kit-1.0.0.zip', source, 'application/zip'),
      storage.putPrivateFile('archives/kit/kit-1.0.0.zip', source, 'application/zip'),
    ]);
    const stored = path.join(dir, 'files', 'private', 'archives', 'kit');
    expect(readdirSync(stored)).toEqual(['kit-1.0.0.zip']);
    expect(readFileSync(path.join(stored, 'kit-1.0.0.zip')).equals(readFileSync(source))).toBe(true);
  });
});
