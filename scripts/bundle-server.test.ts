import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleServer } from './bundle-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
// Inside the checkout, so that a package of node_modules resolves as it does for the server.
const dir = mkdtempSync(path.join(root, 'node_modules', '.kitshop-bundle-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

describe('the server bundle', () => {
  it('keeps what each module finds beside itself, loads import() chunks on demand, runs CommonJS, and names no function at run time', async () => {
    // A server in miniature, laid out as tsc leaves dist/node: files read relative to their module.
    write('own/server/db/migrations/0001.sql', 'CREATE TABLE t ();');
    write(
      'own/server/db/open.js',
      `import { readdirSync } from 'node:fs';
       import { fileURLToPath } from 'node:url';
       export const migrations = () => readdirSync(fileURLToPath(new URL('./migrations', import.meta.url)));`,
    );
    write('own/server/orders/sandbox/checkout.css', 'body { color: teal }');
    write(
      'own/server/orders/sandbox.js',
      `import { readFileSync } from 'node:fs';
       export const css = readFileSync(new URL('./sandbox/checkout.css', import.meta.url), 'utf8');`,
    );
    write('own/web/index.html', '<!doctype html>');
    // CommonJS, as many packages are: its require() of Node's modules must work inside the ES module bundle.
    write('own/server/legacy.cjs', `const path = require('node:path'); module.exports = path.posix.join('a', 'b');`);
    // A class, and a function that makes a closure at each call (as hot paths of Fastify and its plugins do).
    write(
      'own/server/lib/payments.js',
      `export class PaymentError extends Error {}
       export function preferred(header) {
         const offered = header.split(',').map((value) => value.trim());
         return offered.find(function isGzip(value) { return value === 'gzip'; });
       }`,
    );
    write(
      'own/server/main.js',
      `import { existsSync } from 'node:fs';
       import { fileURLToPath } from 'node:url';
       import { migrations } from './db/open.js';
       import joined from './legacy.cjs';
       import { PaymentError, preferred } from './lib/payments.js';
       const { css } = await import('./orders/sandbox.js');
       console.log(JSON.stringify({
         migrations: migrations(),
         css,
         joined,
         preferred: preferred('gzip, br'),
         errorClass: new PaymentError().constructor.name,
         web: existsSync(fileURLToPath(new URL('../web/index.html', import.meta.url))),
         semverLoaded: typeof (await import('semver')).default.satisfies,
       }));`,
    );
    const entry = path.join(dir, 'own/server/main.js');
    await bundleServer({ entry, ownDir: path.join(dir, 'own') });

    const { stdout } = await promisify(execFile)(process.execPath, [entry], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      migrations: ['0001.sql'],
      css: 'body { color: teal }',
      joined: 'a/b',
      preferred: 'gzip',
      errorClass: 'PaymentError',
      web: true,
      semverLoaded: 'function',
    });
    // One entry and its chunks, beside it; the modules themselves are left as they were.
    const outputs = readdirSync(path.dirname(entry)).filter((name) => name.endsWith('.js'));
    expect(outputs).toContain('main.js');
    expect(outputs.filter((name) => name !== 'main.js').every((name) => /^main-.+\.js$/.test(name))).toBe(true);
    expect(outputs.some((name) => name.startsWith('main-sandbox-'))).toBe(true);
    expect(readFileSync(path.join(dir, 'own/server/orders/sandbox.js'), 'utf8')).toContain('import.meta.url');
    expect(readFileSync(entry, 'utf8')).not.toContain("from './db/open.js'");
    // No function is named at run time (esbuild's keepNames): a closure made per call, per request,
    // would cost an Object.defineProperty each time.
    const bundled = outputs.map((name) => readFileSync(path.join(path.dirname(entry), name), 'utf8')).join('\n');
    expect(bundled).toContain('function isGzip(');
    expect(bundled).not.toContain('__name(');
  });
});

describe('the server bundle', () => {
  it('is still needed: the oldest Node the shop supports has no module compile cache', () => {
    const engines: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
    const oldest = Number(/\d+/.exec(engines)?.[0]);
    expect(
      oldest,
      "the bundle's expiry: with Node 22's module.enableCompileCache(), time a second start unbundled and drop the bundle if it keeps up",
    ).toBeLessThan(22);
  });
});
