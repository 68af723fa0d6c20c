import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `files` (path relative to the tree -> text) under `parent/name`; answers the tree's folder. */
export function plantTree(parent: string, name: string, files: Record<string, string>): string {
  const dir = path.join(parent, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
