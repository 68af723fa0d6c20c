import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type ZipAttributes, zipSync } from 'fflate';
import { pack as tarPack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { ArchiveRejectedError, checkArchive, entrySegments } from './archive-checks.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'archive-checks-'));
let n = 0;
const ROOT = 'demo-kit-1.1.0';
const text = (s: string) => new TextEncoder().encode(s);

function zipFile(entries: Record<string, Uint8Array | [Uint8Array, ZipAttributes]>): string {
  const file = path.join(dir, `a${n++}.zip`);
  writeFileSync(file, zipSync(entries));
  return file;
}

type TarEntry = {
  name: string;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device';
  body?: string;
  linkname?: string;
};
async function tarGzFile(entries: TarEntry[], trailing?: Buffer): Promise<string> {
  const pack = tarPack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const e of entries) {
    if (e.type && e.type !== 'file') pack.entry({ name: e.name, type: e.type, linkname: e.linkname });
    else pack.entry({ name: e.name }, e.body ?? '');
  }
  pack.finalize();
  await done;
  const file = path.join(dir, `a${n++}.tar.gz`);
  writeFileSync(file, gzipSync(Buffer.concat([...chunks, ...(trailing ? [trailing] : [])])));
  return file;
}

const rejects = (promise: Promise<unknown>, message: RegExp) =>
  expect(promise).rejects.toSatisfy((e) => e instanceof ArchiveRejectedError && message.test((e as Error).message));

describe('entrySegments', () => {
  it('refuses absolute paths, drive letters and parent segments, and splits the rest', () => {
    expect(entrySegments('/etc/passwd')).toMatch(/absolute/);
    expect(entrySegments('C:\\x')).toMatch(/absolute/);
    expect(entrySegments('kit/../../x')).toMatch(/outside/);
    expect(entrySegments('kit\\..\\x')).toMatch(/outside/);
    expect(entrySegments('./kit//a/./b')).toEqual(['kit', 'a', 'b']);
  });
});

describe('checkArchive (zip)', () => {
  it('passes a kit in its one folder and counts entries and unpacked bytes', async () => {
    const file = zipFile({ [`${ROOT}/README.md`]: text('hi\n'), [`${ROOT}/src/a.ts`]: text('x') });
    await expect(checkArchive(file, 'zip', ROOT)).resolves.toEqual({ entries: 2, unpackedBytes: 4 });
  });

  it('refuses a path out of the folder', async () => {
    await rejects(checkArchive(zipFile({ [`${ROOT}/../evil.sh`]: text('x') }), 'zip', ROOT), /outside/);
  });

  it('refuses an absolute path', async () => {
    await rejects(checkArchive(zipFile({ '/tmp/evil.sh': text('x') }), 'zip', ROOT), /absolute/);
  });

  it('refuses a symbolic link', async () => {
    const link: [Uint8Array, ZipAttributes] = [text('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }];
    await rejects(
      checkArchive(zipFile({ [`${ROOT}/a.txt`]: text('x'), [`${ROOT}/link`]: link }), 'zip', ROOT),
      /symbolic link/,
    );
  });

  it('refuses a device file', async () => {
    const device: [Uint8Array, ZipAttributes] = [text(''), { os: 3, attrs: (0o020644 << 16) >>> 0 }];
    await rejects(checkArchive(zipFile({ [`${ROOT}/tty`]: device }), 'zip', ROOT), /device/);
  });

  it('refuses a second top-level folder, a file at the top and a folder of another name', async () => {
    await rejects(
      checkArchive(zipFile({ [`${ROOT}/a`]: text('x'), 'other/b': text('y') }), 'zip', ROOT),
      /one folder named demo-kit-1\.1\.0\/ \(found other\/b\)/,
    );
    await rejects(checkArchive(zipFile({ 'README.md': text('x') }), 'zip', ROOT), /found the file README\.md/);
    await rejects(checkArchive(zipFile({ 'demo-kit-1.0.0/a': text('x') }), 'zip', ROOT), /one folder named/);
  });

  it('refuses more entries than the limit', async () => {
    const entries = Object.fromEntries([0, 1, 2, 3].map((i) => [`${ROOT}/f${i}`, text('x')]));
    await rejects(
      checkArchive(zipFile(entries), 'zip', ROOT, { entries: 3, unpackedBytes: 1000 }),
      /more than 3 entries/,
    );
  });

  it('refuses a bomb that unpacks past the limit', async () => {
    const file = zipFile({ [`${ROOT}/zeros`]: new Uint8Array(5000) });
    await rejects(checkArchive(file, 'zip', ROOT, { entries: 10, unpackedBytes: 4096 }), /unpacks to more than/);
  });

  it('refuses a bomb whose headers claim a small size (counted while inflating)', async () => {
    const bytes = zipSync({ [`${ROOT}/zeros`]: new Uint8Array(100_000) });
    const view = Buffer.from(bytes);
    // Lie in both the local header (offset 22) and the central directory (offset 24).
    view.writeUInt32LE(10, 22);
    const central = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    view.writeUInt32LE(10, central + 24);
    const file = path.join(dir, 'liar.zip');
    writeFileSync(file, view);
    await expect(checkArchive(file, 'zip', ROOT, { entries: 10, unpackedBytes: 4096 })).rejects.toBeInstanceOf(
      ArchiveRejectedError,
    );
  });

  it('refuses a file that is no zip, and an empty archive', async () => {
    const file = path.join(dir, 'junk.zip');
    writeFileSync(file, 'not a zip at all');
    await rejects(checkArchive(file, 'zip', ROOT), /not a readable \.zip/);
    await rejects(checkArchive(zipFile({}), 'zip', ROOT), /empty/);
  });
});

describe('checkArchive (tar.gz)', () => {
  it('passes a kit in its one folder', async () => {
    const file = await tarGzFile([
      { name: `${ROOT}/`, type: 'directory' },
      { name: `${ROOT}/a.txt`, body: 'abc' },
    ]);
    await expect(checkArchive(file, 'tar.gz', ROOT)).resolves.toEqual({ entries: 2, unpackedBytes: 3 });
  });

  it('refuses traversal, absolute paths, symlinks, hard links and devices', async () => {
    await rejects(checkArchive(await tarGzFile([{ name: `${ROOT}/../../x`, body: 'x' }]), 'tar.gz', ROOT), /outside/);
    await rejects(checkArchive(await tarGzFile([{ name: '/etc/cron.d/x', body: 'x' }]), 'tar.gz', ROOT), /absolute/);
    await rejects(
      checkArchive(await tarGzFile([{ name: `${ROOT}/l`, type: 'symlink', linkname: '/etc' }]), 'tar.gz', ROOT),
      /symbolic link/,
    );
    await rejects(
      checkArchive(await tarGzFile([{ name: `${ROOT}/h`, type: 'link', linkname: '/etc/passwd' }]), 'tar.gz', ROOT),
      /hard link/,
    );
    await rejects(
      checkArchive(await tarGzFile([{ name: `${ROOT}/tty`, type: 'character-device' }]), 'tar.gz', ROOT),
      /device/,
    );
  });

  it('refuses a body bomb and zeros inflating past the tar', async () => {
    const big = await tarGzFile([{ name: `${ROOT}/zeros`, body: '\0'.repeat(50_000) }]);
    await rejects(checkArchive(big, 'tar.gz', ROOT, { entries: 10, unpackedBytes: 10_000 }), /unpacks to more than/);
    const trailing = await tarGzFile([{ name: `${ROOT}/a`, body: 'a' }], Buffer.alloc(200_000));
    await rejects(
      checkArchive(trailing, 'tar.gz', ROOT, { entries: 10, unpackedBytes: 10_000 }),
      /unpacks to more than/,
    );
  });

  it('refuses a truncated gzip', async () => {
    const file = path.join(dir, 'cut.tar.gz');
    writeFileSync(file, gzipSync(Buffer.alloc(4096, 1)).subarray(0, 30));
    await rejects(checkArchive(file, 'tar.gz', ROOT), /not a readable \.tar\.gz/);
  });
});
