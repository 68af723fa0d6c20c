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

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run(bin('vite'), ['build', '--logLevel', 'warn']);
// The public screens' server renderer: the same components, built for Node.
run(bin('vite'), ['build', '--logLevel', 'warn', '--ssr', 'entry-server.tsx']);
run(bin('tsc'), ['-p', 'tsconfig.server.json']);
// tsc emits only JavaScript: every other file of the server (SQL migrations, the sandbox page's
// stylesheet and script) is copied beside it.
cpSync(path.join(root, 'src/server'), path.join(root, 'dist/node/server'), {
  recursive: true,
  filter: (source) => statSync(source).isDirectory() || !source.endsWith('.ts'),
});
// The server's entry, bundled in place (scripts/bundle-server.mjs).
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
compressAll(path.join(root, 'dist/web'));
writeFileSync(path.join(root, 'dist/.build-stamp'), `${new Date().toISOString()}\n`);
console.log('build: dist/web and dist/node are ready');
