import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { constants, gzipSync } from 'node:zlib';

export type Asset = { file: string; bytes: number; gzipBytes: number };

export type BundleFigures = {
  initialJs: Asset[];
  initialCss: Asset[];
  initialJsGzip: number;
  initialCssGzip: number;
  /** Every emitted JS/CSS file under assets/, with whether the home route loads it up front. */
  chunks: (Asset & { initial: boolean })[];
};

function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }).length;
}

function asset(webDir: string, file: string): Asset {
  const full = path.join(webDir, file);
  return { file, bytes: readFileSync(full).length, gzipBytes: gzipSize(full) };
}

/** Attribute values of the tags named `tag` in `html` that satisfy `accept`. */
function tagAttributes(html: string, tag: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const match of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'gi'))) {
    const attributes: Record<string, string> = {};
    for (const attr of (match[1] ?? '').matchAll(/([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
      attributes[(attr[1] ?? '').toLowerCase()] = attr[2] ?? attr[3] ?? attr[4] ?? '';
    }
    found.push(attributes);
  }
  return found;
}

/** A local URL of index.html ("./assets/x.js", "/assets/x.js") as a path relative to the web folder. */
function localPath(url: string): string | undefined {
  if (/^[a-z]+:|^\/\//i.test(url)) return undefined;
  return path.posix.normalize(url.replace(/[?#].*$/, '').replace(/^\.?\//, ''));
}

/**
 * Static dependencies of an ES module chunk: `import … from "./x.js"`, `import "./x.js"` and
 * `export … from "./x.js"`. Dynamic `import("./x.js")` is lazy and does not count. Only relative
 * specifiers that name an emitted file are taken (a bare one would not load in a browser anyway,
 * and this keeps text inside strings from matching by accident).
 */
export function staticImports(code: string): string[] {
  const specifiers: string[] = [];
  const pattern = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{},\s]*?\s*from\s*)?(["'])(\.{1,2}\/[^"']+)\1/g;
  for (const match of code.matchAll(pattern)) specifiers.push(match[2] ?? '');
  return specifiers;
}

export function analyseBundle(webDir: string): BundleFigures {
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const entryJs: string[] = [];
  for (const attrs of tagAttributes(html, 'script')) {
    if (attrs.type === 'module' && attrs.src) entryJs.push(attrs.src);
  }
  const cssFiles: string[] = [];
  for (const attrs of tagAttributes(html, 'link')) {
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('modulepreload') && attrs.href) entryJs.push(attrs.href);
    if (rel.includes('stylesheet') && attrs.href) cssFiles.push(attrs.href);
  }

  const jsFiles = new Set<string>();
  // The page shell loads the entry through boot.js (a plain script from public/, see `builtTemplate`).
  if (existsSync(path.join(webDir, 'boot.js'))) jsFiles.add('boot.js');
  const queue = entryJs.map(localPath).filter((p): p is string => p !== undefined);
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (jsFiles.has(file)) continue;
    const full = path.join(webDir, file);
    if (!existsSync(full)) throw new Error(`bundle: ${file} is referenced but missing from ${webDir}`);
    jsFiles.add(file);
    for (const specifier of staticImports(readFileSync(full, 'utf8'))) {
      const dep = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (existsSync(path.join(webDir, dep)) && !jsFiles.has(dep)) queue.push(dep);
    }
  }
  const initialJs = [...jsFiles].map((file) => asset(webDir, file));
  const initialCss = [...new Set(cssFiles.map(localPath).filter((p): p is string => p !== undefined))].map((file) =>
    asset(webDir, file),
  );
  const initial = new Set([...jsFiles, ...initialCss.map((a) => a.file)]);

  const chunks: BundleFigures['chunks'] = [];
  const assetsDir = path.join(webDir, 'assets');
  if (existsSync(assetsDir)) {
    for (const name of readdirSync(assetsDir).sort()) {
      if (!/\.(js|css)$/.test(name)) continue;
      const file = `assets/${name}`;
      chunks.push({ ...asset(webDir, file), initial: initial.has(file) });
    }
  }
  return {
    initialJs,
    initialCss,
    initialJsGzip: initialJs.reduce((sum, a) => sum + a.gzipBytes, 0),
    initialCssGzip: initialCss.reduce((sum, a) => sum + a.gzipBytes, 0),
    chunks,
  };
}
