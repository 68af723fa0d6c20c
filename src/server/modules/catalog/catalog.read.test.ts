import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CATALOG, FIXTURE_CATALOG } from '../../../../tests/setup/test-app.ts';
import { archiveRoot, buildArchive, readCatalog } from './catalog.read.ts';

/** The first line of the first code block under a guide's `## Quick Start`: what a buyer types first. */
function firstCommand(setupMarkdown: string): string {
  const quickStart = setupMarkdown.slice(setupMarkdown.search(/^## Quick Start\s*$/m));
  const line = /^```\w*\n(.+)$/m.exec(quickStart)?.[1];
  if (!line) throw new Error('the Quick Start has no code block');
  return line.trim();
}

/** Unpacks zip bytes into `dir` as `unzip` does, refusing entries that would leave it. */
function unzipInto(bytes: Uint8Array, dir: string): void {
  for (const [name, data] of Object.entries(unzipSync(bytes))) {
    const target = path.resolve(dir, name);
    if (!target.startsWith(`${dir}${path.sep}`)) throw new Error(`${name} leaves the folder`);
    if (name.endsWith('/')) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
}

const temporary: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('setup guides and archives agree', () => {
  it("each demo kit's guide starts by unpacking the downloaded archive and entering a folder it holds", async () => {
    const kits = await readCatalog(DEMO_CATALOG);
    expect(kits.length).toBeGreaterThanOrEqual(6);
    for (const kit of kits) {
      const { version, releasedOn, sourceDir } = kit.release;
      const command = firstCommand(readFileSync(path.join(DEMO_CATALOG, 'kits', kit.sefId, 'setup.md'), 'utf8'));
      const [, zip, folder] = /^unzip (\S+) && cd (\S+)$/.exec(command) ?? [];
      expect(zip, `${kit.sefId}: first command "${command}"`).toBe(`${kit.sefId}-${version}.zip`);
      // The archive as a download gets it, unpacked where the buyer saved it.
      const downloads = tempDir('kitshop-unzip-');
      unzipInto(await buildArchive(sourceDir, archiveRoot(kit.sefId, version), releasedOn), downloads);
      expect(
        statSync(path.join(downloads, folder!), { throwIfNoEntry: false })?.isDirectory(),
        `${kit.sefId}: cd ${folder}`,
      ).toBe(true);
      expect(statSync(path.join(downloads, folder!, 'README.md')).isFile()).toBe(true);
    }
  });

  it('refuses a guide whose unpack command names another file or folder than the archive', async () => {
    const dir = tempDir('kitshop-catalog-');
    cpSync(FIXTURE_CATALOG, dir, { recursive: true });
    const setup = path.join(dir, 'kits/alpha-kit/setup.md');
    const version = JSON.parse(readFileSync(path.join(dir, 'kits/alpha-kit/kit.json'), 'utf8')).version;
    const guide = (first: string) =>
      writeFileSync(
        setup,
        `# Setup\n\n## Quick Start\n\n\`\`\`bash\n${first}\nnpm install\n\`\`\`\n\n## How to Modify\n\nEdit.\n`,
      );

    guide(`unzip alpha-kit-${version}.zip && cd alpha-kit`);
    await expect(readCatalog(dir)).rejects.toThrow(
      `kits/alpha-kit/setup.md: "unzip alpha-kit-${version}.zip && cd alpha-kit" must read "unzip alpha-kit-${version}.zip && cd alpha-kit-${version}"`,
    );
    guide(`unzip alpha-kit-0.0.1.zip && cd alpha-kit-0.0.1`);
    await expect(readCatalog(dir)).rejects.toThrow('kits/alpha-kit/setup.md: "unzip alpha-kit-0.0.1.zip');
    guide(`unzip alpha-kit-${version}.zip && cd alpha-kit-${version}`);
    await expect(readCatalog(dir)).resolves.toHaveLength(2);
  });
});
