// `npm run stack`: builds when the build is missing or stale, then starts nginx and two instances
// (scripts/stack/run.ts through tsx, which the stack's own TypeScript needs).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { buildIsStale } from './start.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (buildIsStale()) {
  console.log('stack: the build is missing or stale; building first');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}
register();
await import('./stack/run.ts');
