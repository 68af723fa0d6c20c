import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtTemplate } from './server.ts';

// A build as Vite writes it: the entry script and its module preload in index.html, a lazy screen
// with a CSS file and an import of its own in the manifest.
const webDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-template-'));
mkdirSync(path.join(webDir, '.vite'));
writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <!--app-head-->
    <script type="module" crossorigin src="./assets/index-A.js"></script>
    <link rel="modulepreload" crossorigin href="./assets/runtime-B.js">
    <link rel="stylesheet" crossorigin href="./assets/index-C.css">
  </head>
  <body>
    <div id="root"></div>
    <!--app-data-->
  </body>
</html>
`,
);
writeFileSync(
  path.join(webDir, '.vite/manifest.json'),
  JSON.stringify({
    'main.tsx': { file: 'assets/index-A.js', isEntry: true, imports: ['_runtime'] },
    _runtime: { file: 'assets/runtime-B.js' },
    'features/product-page.tsx': {
      file: 'assets/product-D.js',
      css: ['assets/product-E.css'],
      imports: ['main.tsx', '_modal'],
    },
    _modal: { file: 'assets/modal-F.js' },
  }),
);
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const bootTag = (html: string) =>
  /<script src="([^"]+)" defer fetchpriority="high" data-entry="([^"]+)" data-modules="([^"]*)"><\/script>/.exec(html);

describe('builtTemplate', () => {
  it("puts the boot script in place of Vite's entry script and module preloads, under the base path", async () => {
    const html = await builtTemplate(webDir, '/shop')('/', undefined);
    const boot = bootTag(html);
    expect(boot?.slice(1)).toEqual(['/shop/boot.js', '/shop/assets/index-A.js', '/shop/assets/runtime-B.js']);
    expect(html).not.toContain('type="module"');
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/shop/assets/index-C.css">');
  });

  it("hands a lazy screen's chunks to the boot script and links its CSS in the head", async () => {
    const html = await builtTemplate(webDir, '')('/product/x', ['features/product-page.tsx']);
    expect(bootTag(html)?.[3]).toBe('/assets/runtime-B.js /assets/product-D.js /assets/modal-F.js');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/product-E.css">');
  });
});
