// `npm start`: builds when the build is missing or older than its sources, then runs the built
// server (plain JavaScript; never Vite's dev server, whatever NODE_ENV says).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist/.build-stamp');
const SOURCES = ['src', 'package.json', 'vite.config.ts', 'tsconfig.json', 'tsconfig.server.json'];

function newestMtime(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, name)));
  return newest;
}

export function buildIsStale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  if (buildIsStale()) {
    console.log('start: the build is missing or stale; building first');
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  }
  await import(path.join(root, 'dist/node/server/main.js'));
}
