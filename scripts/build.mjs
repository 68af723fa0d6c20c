// Builds the web app (Vite -> dist/web, and its server renderer -> dist/ssr, then pre-compressed .br/.gz beside each text asset) and
// the server (tsc -> dist/node, plus its files that are not TypeScript; its entry bundled with esbuild). `npm start` runs it when the build is stale.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { bundleServer } from './bundle-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

// Each step says what it starts and how long the one before took: the build takes a while on a
// small machine, and Vite and tsc are quiet at this log level.
const startedAt = Date.now();
let stepAt = startedAt;
const STEPS = 6;
let stepNumber = 0;
const step = (what) => {
  const now = Date.now();
  const took = stepNumber ? ` (previous step ${((now - stepAt) / 1000).toFixed(1)} s)` : '';
  stepNumber += 1;
  stepAt = now;
  console.log(`build: [${stepNumber}/${STEPS}] ${what}${took}`);
};

step('web app (Vite) -> dist/web');
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run(bin('vite'), ['build', '--logLevel', 'warn']);
// The public screens' server renderer: the same components, built for Node.
step('server renderer (Vite SSR) -> dist/ssr');
run(bin('vite'), ['build', '--logLevel', 'warn', '--ssr', 'entry-server.tsx']);
step('server (tsc) -> dist/node');
run(bin('tsc'), ['-p', 'tsconfig.server.json']);
// tsc emits only JavaScript: every other file of the server (SQL migrations, the sandbox page's
// stylesheet and script) is copied beside it.
cpSync(path.join(root, 'src/server'), path.join(root, 'dist/node/server'), {
  recursive: true,
  filter: (source) => statSync(source).isDirectory() || !source.endsWith('.ts'),
});
// The server's entry, bundled in place (scripts/bundle-server.mjs).
step('server entry bundle (esbuild)');
await bundleServer({ entry: path.join(root, 'dist/node/server/main.js'), ownDir: path.join(root, 'dist/node') });

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|xml|map)$/;
function compressAll(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) compressAll(file);
    else if (COMPRESSIBLE.test(name) && name !== 'index.html') {
      const body = readFileSync(file);
      writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    }
  }
}
step('pre-compressed .br and .gz beside each asset');
compressAll(path.join(root, 'dist/web'));
step('build stamp');
writeFileSync(path.join(root, 'dist/.build-stamp'), `${new Date().toISOString()}\n`);
console.log(`build: dist/web and dist/node are ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
