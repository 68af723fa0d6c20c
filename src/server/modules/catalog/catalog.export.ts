import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { asc, desc, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { extract } from 'tar-stream';
import type { Database } from '../../db/open.ts';
import { kitLicences, kits, kitVersions } from '../../db/schema/catalog.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { archiveRoot } from './catalog.read.ts';

/**
 * `npm run catalog -- export DIR`: the catalog as the database and storage hold it, written back in
 * the import format (catalog.content.ts), so a seller can keep it in git and an import of DIR into
 * an empty shop gives the same catalog. Each kit's downloadable files come from its newest version's
 * archive; its screenshots from their content-addressed keys.
 */

export type ExportReport = { written: string[]; skipped: string[] };

const cents = (value: number) => (value / 100).toFixed(2);
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `media/screenshots/<sef>/<16 hex>-<file>` -> its storage key and `<file>`. */
function screenshotFile(url: string): { key: string; file: string } {
  const key = url.replace(/^media\//, '');
  return { key, file: path.posix.basename(key).replace(/^[0-9a-f]{16}-/, '') };
}

/** The regular files of a .tar.gz, by path (links and devices are never part of a kit). */
async function untarGz(bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  const entries = extract();
  const done = (async () => {
    for await (const entry of entries) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (entry.header.type === 'file') files[entry.header.name.replace(/^\.\//, '')] = Buffer.concat(chunks);
    }
  })();
  await pipeline(Readable.from([Buffer.from(bytes)]), createGunzip(), entries);
  await done;
  return files;
}

async function writeFile(file: string, content: string | Uint8Array) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

export async function exportCatalog(db: Database, storage: Storage, dir: string): Promise<ExportReport> {
  const report: ExportReport = { written: [], skipped: [] };
  const rows = await db.select().from(kits).where(eq(kits.active, true)).orderBy(asc(kits.position), asc(kits.id));
  const versions = await db.select().from(kitVersions).orderBy(desc(kitVersions.createdAt), desc(kitVersions.id));
  const tiers = await db
    .select()
    .from(kitLicences)
    .where(eq(kitLicences.active, true))
    .orderBy(asc(kitLicences.position), asc(kitLicences.id));
  const read = async (area: 'public' | 'private', key: string, what: string) => {
    const bytes = await storage.readObject(area, key);
    if (!bytes) throw new Error(`${what}: ${key} is missing from storage`);
    return bytes;
  };
  const licensesOf = (kitId: number) => {
    const own = tiers.filter((t) => t.kitId === kitId);
    if (own.length === 0) return {};
    return {
      licenses: own.map((t) => ({
        id: t.tier,
        name: t.name,
        seats: t.seats,
        price: cents(t.priceCents),
        paddle_price_id: t.paddlePriceId,
        activation_limit: t.activationLimit,
      })),
    };
  };
  for (const kit of rows) {
    const own = versions.filter((v) => v.kitId === kit.id);
    const newest = own[0];
    if (!newest) {
      report.skipped.push(`${kit.sefId} (no version published yet)`);
      continue;
    }
    if (kit.setupMarkdown === null) {
      report.skipped.push(`${kit.sefId} (imported before Markdown was kept: run npm run catalog once)`);
      continue;
    }
    const format = newest.storageKey.endsWith('.zip')
      ? 'zip'
      : /\.(tar\.gz|tgz)$/.test(newest.storageKey)
        ? 'tar.gz'
        : null;
    if (!format) {
      report.skipped.push(`${kit.sefId} (its archive is neither a zip nor a .tar.gz: ${newest.storageKey})`);
      continue;
    }
    const at = (...parts: string[]) => path.join(dir, 'kits', kit.sefId, ...parts);
    await fs.rm(at(), { recursive: true, force: true });

    await writeFile(
      at('kit.json'),
      json({
        title: kit.title,
        spot: kit.spot,
        position: kit.position,
        price: cents(kit.priceCents),
        ...(kit.discountedFromCents !== null ? { discounted_from: cents(kit.discountedFromCents) } : {}),
        paddle_price_id: kit.paddlePriceId,
        version: newest.version,
        features: kit.features,
        ...(kit.githubRepository ? { github_repository: kit.githubRepository } : {}),
        ...(kit.includes.length > 0 ? { includes: kit.includes } : {}),
        ...(kit.upgradeFloorCents !== null ? { upgrade_floor: cents(kit.upgradeFloorCents) } : {}),
        ...licensesOf(kit.id),
      }),
    );

    const screenshots = [];
    for (const shot of kit.details.screenshots) {
      const full = screenshotFile(shot.url);
      await writeFile(at('screenshots', full.file), await read('public', full.key, `${kit.sefId} screenshot`));
      if (shot.thumbnail_url !== shot.url) {
        const thumb = screenshotFile(shot.thumbnail_url);
        // The import finds a thumbnail by the full image's name.
        const name = full.file.replace(/(\.\w+)$/, '-thumb$1');
        await writeFile(at('screenshots', name), await read('public', thumb.key, `${kit.sefId} thumbnail`));
      }
      screenshots.push({ file: full.file, alt: shot.alt, title: shot.title });
    }
    await writeFile(at('details.json'), json({ ...kit.details, screenshots }));

    await writeFile(at('setup.md'), kit.setupMarkdown);
    for (const [i, page] of (kit.docsMarkdown ?? []).entries())
      await writeFile(at('docs', `${String(i + 1).padStart(2, '0')}-${page.slug}.md`), page.markdown);
    await writeFile(
      at('CHANGELOG.md'),
      `# Changelog\n\n${own.map((v) => `## ${v.version} - ${v.releasedOn}\n\n${v.changelog}\n`).join('\n')}`,
    );

    const root = `${archiveRoot(kit.sefId, newest.version)}/`;
    const archive = await read('private', newest.storageKey, `${kit.sefId} archive`);
    const files = format === 'zip' ? unzipSync(archive) : await untarGz(archive);
    await fs.mkdir(at('source'), { recursive: true });
    for (const [name, bytes] of Object.entries(files)) {
      if (name.endsWith('/')) continue;
      // Whatever single folder the archive holds is the kit's root (a GitHub tarball names its own).
      const top = `${name.split('/')[0]}/`;
      const relative = name.startsWith(root) ? name.slice(root.length) : name.slice(top.length);
      // An archive entry never writes outside the kit's source folder.
      const target = path.resolve(at('source'), relative);
      if (!target.startsWith(`${path.resolve(at('source'))}${path.sep}`))
        throw new Error(`${kit.sefId}: bad entry ${name}`);
      await writeFile(target, bytes);
    }
    report.written.push(kit.sefId);
  }
  return report;
}
