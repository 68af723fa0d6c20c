import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from '../../../../tests/setup/test-app.ts';
import { archiveRoot, buildArchive, readCatalog } from './catalog.read.ts';

/**
 * The demo kits are what a newcomer downloads first: every file, folder, npm script and make target
 * their guides name must be in the archive they get, or the guide sends them looking for nothing.
 */

/** Names a guide gives for what the buyer's tools create; they are not in the archive. */
const GENERATED = new Set([
  '.env',
  '.env.local',
  'node_modules',
  'dist',
  'dist/',
  'build',
  'bin',
  './bin',
  'bin/server',
  'web/build',
  'src/routeTree.gen.ts',
  'internal/store/db',
  'internal/store/db/',
  'vendor',
  '.svelte-kit',
  '.next',
  'staticfiles',
]);

/** Examples of files the guides tell the buyer to create. */
const TO_BE_CREATED = new Set([
  'src/routes/_app/customers.tsx',
  'app/habit/[id].tsx',
  'resources/js/Pages/Folder/Page.vue',
]);

/** Named to say the kit does without them ("one file rather than a `settings/` package"). */
const NAMED_AS_ABSENT = new Set(['settings/']);

const FILE_EXTENSIONS =
  /\.(ts|tsx|js|mjs|cjs|jsx|json|md|sql|go|mod|py|php|vue|svelte|css|html|ya?ml|toml|sh|txt|lock|example|cfg|ini|conf)$/;

function looksLikePath(candidate: string): boolean {
  // Code (`router.push('/habit/42')`, `Inertia::render(...)`) and placeholders are not paths; a
  // route group folder (`app/(tabs)/`) is.
  if (/[\s<>{}*$@?=:'"]|\w\(|^\/|^-|^\.\.|\/\//.test(candidate)) return false;
  // A host name (`github.com/go-redis/redis_rate`, `gcr.io/...`) starts a module or image, not a path.
  if (/^[a-z0-9-]+\.[a-z]{2,}\//.test(candidate)) return false;
  // A dotted Go or Python identifier (`auth.RequireScope`) is not a path.
  if (!candidate.includes('/') && /^[\w-]+\.[A-Z]/.test(candidate)) return false;
  return candidate.includes('/') || FILE_EXTENSIONS.test(candidate) || candidate.startsWith('.env');
}

/** What the fenced code blocks of a Markdown text hold, and the text without them. */
function splitCode(markdown: string): { prose: string; blocks: string[] } {
  const blocks: string[] = [];
  const prose = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_, body: string) => {
    blocks.push(body);
    return '';
  });
  return { prose, blocks };
}

/**
 * The paths a reader is told about: inline code spans that look like a path, and paths in the
 * `# comments` of shell blocks ("applies the SQL migrations in drizzle/").
 */
function namedPaths(markdown: string): string[] {
  const { prose, blocks } = splitCode(markdown);
  const candidates = [...prose.matchAll(/`([^`\n]+)`/g)].map(([, span]) => span!.trim());
  for (const block of blocks)
    for (const [, comment] of block.matchAll(/\s#\s([^\n]*)/g))
      candidates.push(...comment!.split(/[\s,;]+/).filter((word) => word.includes('/') && !word.includes(':')));
  return [...new Set(candidates.map((c) => c.replace(/[.,;]$/, '')).filter(looksLikePath))];
}

/** `npm run x` and `make x` commands anywhere in a guide, code blocks included. */
function namedCommands(markdown: string): { npm: string[]; make: string[] } {
  const npm = new Set<string>();
  const make = new Set<string>();
  for (const [, script] of markdown.matchAll(/\bnpm run ([\w:.-]+)/g)) npm.add(script!);
  const { prose, blocks } = splitCode(markdown);
  const code = [...blocks, ...[...prose.matchAll(/`([^`\n]+)`/g)].map(([, span]) => span!)];
  for (const line of code.flatMap((text) => text.split('\n'))) {
    const targets = /^\s*make((?: [a-z][\w-]*(?=\s|$))+)/.exec(line)?.[1];
    for (const target of targets?.trim().split(' ') ?? []) make.add(target);
  }
  return { npm: [...npm], make: [...make] };
}

/** Whether `named` is a file or folder of the archive, from its root or from one of its folders. */
function holds(files: string[], named: string): boolean {
  const clean = named.replace(/^\.\//, '').replace(/\/$/, '');
  return files.some(
    (file) =>
      file === clean ||
      file.startsWith(`${clean}/`) ||
      file.endsWith(`/${clean}`) ||
      file.includes(`/${clean}/`) ||
      (!clean.includes('/') && path.basename(file) === clean),
  );
}

function guides(kitDir: string): { name: string; text: string }[] {
  const docsDir = path.join(kitDir, 'docs');
  const docs = existsSync(docsDir)
    ? readdirSync(docsDir)
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => ({ name: `docs/${f}`, text: readFileSync(path.join(docsDir, f), 'utf8') }))
    : [];
  return [{ name: 'setup.md', text: readFileSync(path.join(kitDir, 'setup.md'), 'utf8') }, ...docs];
}

async function archiveFiles(kit: Awaited<ReturnType<typeof readCatalog>>[number]): Promise<Map<string, Uint8Array>> {
  const root = archiveRoot(kit.sefId, kit.version);
  const entries = unzipSync(await buildArchive(kit.release.sourceDir, root, kit.release.releasedOn));
  return new Map(Object.entries(entries).map(([name, data]) => [name.slice(root.length + 1), data]));
}

function makeTargets(makefile: string): Set<string> {
  return new Set([...makefile.matchAll(/^([a-z][\w-]*):/gm)].map(([, target]) => target!));
}

describe('the demo kits hold what their guides name', () => {
  it('finds paths and commands the way a reader does', () => {
    const text = [
      'Edit `src/lib/stripe.ts`, `app/(tabs)/_layout.tsx` and `permissions.test.ts`, not `@/db`, `/api/v1`, `auth.RequireScope`,',
      "`router.push('/habit/42')`, `github.com/go-redis/redis_rate` or `internal/store/queries/<resource>.sql`;",
      'run `npm run db:migrate` to make sure, then `make generate`.',
      '```bash',
      'npm run dev          # applies the SQL migrations in drizzle/, on http://localhost:5173',
      'make migrate seed',
      'make migration name=add_widgets',
      '```',
    ].join('\n');
    expect(namedPaths(text)).toEqual([
      'src/lib/stripe.ts',
      'app/(tabs)/_layout.tsx',
      'permissions.test.ts',
      'drizzle/',
    ]);
    expect(namedCommands(text)).toEqual({
      npm: ['db:migrate', 'dev'],
      make: ['migrate', 'seed', 'migration', 'generate'],
    });
  });

  it('every demo archive holds each file, folder, npm script and make target its setup guide and docs name', async () => {
    const kits = await readCatalog(DEMO_CATALOG);
    expect(kits.length).toBeGreaterThanOrEqual(6);
    const missing: string[] = [];
    for (const kit of kits) {
      const files = await archiveFiles(kit);
      const names = [...files.keys()];
      const decode = (name: string) => new TextDecoder().decode(files.get(name));
      const scripts = new Set(
        names
          .filter((name) => path.basename(name) === 'package.json')
          .flatMap((name) => Object.keys((JSON.parse(decode(name)) as { scripts?: object }).scripts ?? {})),
      );
      const targets = files.has('Makefile') ? makeTargets(decode('Makefile')) : new Set<string>();
      for (const guide of guides(path.join(DEMO_CATALOG, 'kits', kit.sefId))) {
        const where = `${kit.sefId}/${guide.name}`;
        for (const named of namedPaths(guide.text))
          if (!GENERATED.has(named) && !TO_BE_CREATED.has(named) && !NAMED_AS_ABSENT.has(named) && !holds(names, named))
            missing.push(`${where}: \`${named}\``);
        const commands = namedCommands(guide.text);
        for (const script of commands.npm)
          if (!scripts.has(script)) missing.push(`${where}: npm run ${script} (no package.json has it)`);
        for (const target of commands.make)
          if (!targets.has(target)) missing.push(`${where}: make ${target} (not in the Makefile)`);
      }
    }
    expect(missing).toEqual([]);
  });
});
