// Runs a command of the built server (`npm run catalog` -> dist/node/server/cli.js catalog),
// building first when needed, so no TypeScript loader is involved.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { buildIsStale } from './start.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (buildIsStale()) {
  console.error('building first (the build is missing or stale)');
  // The build's report goes to standard error too: standard output is the command's (a CSV, say).
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: [0, 2, 2] });
}
await import(path.join(root, 'dist/node/server/cli.js'));
