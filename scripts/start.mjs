// `npm start`: builds when the build is missing or older than its sources, then runs the built
// server (plain JavaScript; never Vite's dev server, whatever NODE_ENV says), in this process: the
// Node flags below come from package.json's `start` script (`node <flags> scripts/start.mjs`).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist/.build-stamp');
const SOURCES = ['src', 'package.json', 'vite.config.ts', 'tsconfig.json', 'tsconfig.server.json'];

/**
 * The Node flags the server runs with, on the command line before the script (package.json's
 * `start` passes the same; the bench and the stack take them from here). V8 sizes its young
 * generation when the process starts (v8.setFlagsFromString is too late for it), so they cannot be
 * set from inside the server. `--max-semi-space-size=4` (MiB): under load the young generation
 * otherwise grows to 3 x 16 MiB and stays there. `--no-allocation-site-pretenuring`: V8 otherwise
 * learns, from the few requests in flight when a young collection runs, to allocate the objects
 * of every later request straight in the old generation, where they pile up as garbage until a
 * full collection. docs/operations.md ("Memory") has the measurements behind both, and why the old
 * generation's limit stays at Node's default.
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=4', '--no-allocation-site-pretenuring'];

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
