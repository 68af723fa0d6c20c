import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { formatPatch, OMIT_HEADERS, structuredPatch } from 'diff';
import { type ArchiveFormat, walkArchive } from '../../lib/archive-reader.ts';

/**
 * An upgrade patch between two archives of a kit: a unified diff with git's headers
 * (`diff --git a/<path> b/<path>`, new/deleted file modes), paths relative to the kit's folder,
 * so `git apply` and `patch -p1` take it in the root of an unmodified copy of the older version.
 * Binary files (and text files too large to diff usefully) are listed in the comment header
 * instead of diffed. Archives are read entry by entry; only text files are held in memory.
 */

/** Larger files are listed, not diffed: a diff of them helps nobody merge. */
const DIFF_MAX_BYTES = 2 * 1024 * 1024;

/** `blob`: git's object id of a text file's bytes, so `git apply --3way` can find the original. */
type FileState = { mode: number; sha256: string; text: string | null; blob: string | null };

const gitBlobId = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

export type ArchiveSide = { file: string; format: ArchiveFormat; root: string };

const isText = (bytes: Buffer) => {
  if (bytes.subarray(0, 8000).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

async function readBody(body: Readable, keep: boolean): Promise<{ sha256: string; bytes: Buffer | null }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (keep && size <= DIFF_MAX_BYTES) chunks.push(chunk as Buffer);
  }
  return { sha256: hash.digest('hex'), bytes: keep && size <= DIFF_MAX_BYTES ? Buffer.concat(chunks) : null };
}

/** The files of an archive by path inside its root folder. */
export async function readArchiveFiles(side: ArchiveSide): Promise<Map<string, FileState>> {
  const files = new Map<string, FileState>();
  await walkArchive(side.file, side.format, async (entry, body) => {
    if (entry.kind !== 'file' || !body) return;
    const segments = entry.name
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s !== '' && s !== '.');
    if (segments[0] !== side.root || segments.length < 2) return;
    const { sha256, bytes } = await readBody(body, entry.declaredSize <= DIFF_MAX_BYTES);
    const text = bytes && isText(bytes);
    files.set(segments.slice(1).join('/'), {
      mode: entry.mode & 0o111 ? 0o100755 : 0o100644,
      sha256,
      text: text ? bytes.toString('utf8') : null,
      blob: text ? gitBlobId(bytes) : null,
    });
  });
  return files;
}

const octal = (mode: number) => mode.toString(8);
const ZERO_ID = '0'.repeat(40);

/** The git-format patch from `before` to `after`, with its comment header. */
export function makeUpgradePatch(
  before: Map<string, FileState>,
  after: Map<string, FileState>,
  label: { kit: string; from: string; to: string },
): string {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const binary: string[] = [];
  const parts: string[] = [];
  let changed = 0;
  for (const path of paths) {
    const old = before.get(path);
    const next = after.get(path);
    if (old && next && old.sha256 === next.sha256 && old.mode === next.mode) continue;
    changed++;
    if ((old && old.text === null) || (next && next.text === null)) {
      binary.push(`#   ${path} (${!old ? 'added' : !next ? 'removed' : 'changed'}, binary)`);
      continue;
    }
    const header = [`diff --git a/${path} b/${path}`];
    if (!old) header.push(`new file mode ${octal(next!.mode)}`);
    else if (!next) header.push(`deleted file mode ${octal(old.mode)}`);
    else if (old.mode !== next.mode) header.push(`old mode ${octal(old.mode)}`, `new mode ${octal(next.mode)}`);
    const oldText = old?.text ?? '';
    const newText = next?.text ?? '';
    if (oldText !== newText) {
      const same = old && next && old.mode === next.mode ? ` ${octal(old.mode)}` : '';
      header.push(`index ${old?.blob ?? ZERO_ID}..${next?.blob ?? ZERO_ID}${same}`);
      // As git does: a name with a space ends with a tab, so patch(1) reads all of it.
      const end = path.includes(' ') ? '\t' : '';
      header.push(old ? `--- a/${path}${end}` : '--- /dev/null', next ? `+++ b/${path}${end}` : '+++ /dev/null');
      const hunks = formatPatch(
        structuredPatch(`a/${path}`, `b/${path}`, oldText, newText, '', '', { context: 3 }),
        OMIT_HEADERS,
      );
      parts.push(`${header.join('\n')}\n${hunks}`);
    } else parts.push(`${header.join('\n')}\n`);
  }
  const head = [
    `# Upgrade patch: ${label.kit} ${label.from} -> ${label.to} (${changed} file${changed === 1 ? '' : 's'} changed)`,
    `# Apply it in the root of your copy of ${label.from}:`,
    '#   git apply --3way upgrade.patch   (or: patch -p1 < upgrade.patch)',
    ...(binary.length > 0
      ? [`# Binary files are not in this patch; copy them from the ${label.to} archive:`, ...binary]
      : []),
    '',
  ];
  return `${head.join('\n')}\n${parts.join('')}`;
}
