import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import type { z } from 'zod';
import type { KitDetails, KitDocPage, KitDocSource, kits } from '../../db/schema/catalog.ts';
import { renderMarkdown, sanitizeHtml } from '../../lib/html.ts';
import { DetailsFileSchema, KitFileSchema, SEF_ID_PATTERN } from './catalog.content.ts';

/**
 * Reading the catalog's content folder (the format of catalog.content.ts): every kit validated,
 * its Markdown rendered and sanitised, its archive built. Nothing here touches the database or
 * storage; catalog.import.ts writes what this reads.
 */

/** Bad content: every problem, each with its file and field. */
export class CatalogContentError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The catalog has ${problems.length} problem(s); nothing was imported:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'CatalogContentError';
  }
}

/** A licence tier as kit.json gives it (cents), written to kit_licences by the import. */
export type LicenceRecord = {
  tier: string;
  name: string;
  seats: number;
  priceCents: number;
  paddlePriceId: string;
  activationLimit: number;
  position: number;
};

export type KitRecord = Omit<typeof kits.$inferInsert, 'id' | 'active' | 'createdAt' | 'updatedAt'> & {
  licences: LicenceRecord[];
  media: { key: string; file: string }[];
  release: { version: string; releasedOn: string; changelog: string; sourceDir: string };
};

/** Every file under `dir`, relative, sorted: the archive's content in a stable order. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = (await fs.readdir(path.join(dir, prefix), { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const files: string[] = [];
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) files.push(rel);
  }
  return files;
}

/**
 * A reproducible zip of a kit's source folder: files in sorted order under `<sef>-<version>/`, every
 * entry dated the release day, so the same source always gives the same bytes (and SHA-256).
 */
export async function buildArchive(sourceDir: string, rootName: string, releasedOn: string): Promise<Uint8Array> {
  const mtime = new Date(`${releasedOn}T00:00:00Z`);
  const entries: Record<string, [Uint8Array, { mtime: Date; level: 6 }]> = {};
  for (const file of await listFiles(sourceDir)) {
    entries[`${rootName}/${file}`] = [
      new Uint8Array(await fs.readFile(path.join(sourceDir, file))),
      { mtime, level: 6 },
    ];
  }
  return zipSync(entries);
}

/** The folder a kit's archive unpacks into (`unzip <root>.zip` gives `<root>/`), as downloads name the file. */
export const archiveRoot = (sefId: string, version: string) => `${sefId}-${version}`;

/** A setup guide's `unzip <file> && cd <folder>` line, if it has one. */
export function guideUnpackCommand(setupMarkdown: string): { zip: string; folder: string } | undefined {
  const match = /^unzip\s+(\S+)\s*&&\s*cd\s+(\S+?)\/?\s*$/m.exec(setupMarkdown);
  return match ? { zip: match[1]!, folder: match[2]! } : undefined;
}

const REQUIRED_SETUP_SECTIONS = ['Quick Start', 'How to Modify'];
const CHANGELOG_HEADING = /^## (\d+\.\d+\.\d+) - (\d{4}-\d{2}-\d{2})\s*$/m;

async function readJson(file: string, label: string, problems: string[]): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    problems.push(
      `${label}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file is missing' : `not valid JSON (${(error as Error).message})`}`,
    );
    return undefined;
  }
}

function check<T extends z.ZodType>(
  schema: T,
  value: unknown,
  label: string,
  problems: string[],
): z.output<T> | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    problems.push(`${label}: ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  }
  return undefined;
}

async function fileHash(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');
}

async function readKit(dir: string, sefId: string, rel: string, problems: string[]): Promise<KitRecord | undefined> {
  const before = problems.length;
  const meta = check(
    KitFileSchema,
    await readJson(path.join(dir, 'kit.json'), `${rel}/kit.json`, problems),
    `${rel}/kit.json`,
    problems,
  );
  const details = check(
    DetailsFileSchema,
    await readJson(path.join(dir, 'details.json'), `${rel}/details.json`, problems),
    `${rel}/details.json`,
    problems,
  );

  let setup: string | undefined;
  try {
    setup = await fs.readFile(path.join(dir, 'setup.md'), 'utf8');
  } catch {
    problems.push(`${rel}/setup.md: file is missing`);
  }
  for (const section of setup === undefined ? [] : REQUIRED_SETUP_SECTIONS) {
    if (!new RegExp(`^## ${section}\\s*$`, 'm').test(setup!))
      problems.push(`${rel}/setup.md: needs a "## ${section}" section`);
  }
  // The guide's unpack command must name the file a download gets and the folder it unpacks into.
  const unpack = setup === undefined ? undefined : guideUnpackCommand(setup);
  if (unpack && meta) {
    const root = archiveRoot(sefId, meta.version);
    if (unpack.zip !== `${root}.zip` || unpack.folder !== root)
      problems.push(
        `${rel}/setup.md: "unzip ${unpack.zip} && cd ${unpack.folder}" must read "unzip ${root}.zip && cd ${root}" (the archive of version ${meta.version} unpacks into ${root}/)`,
      );
  }
  const setupHtml = setup === undefined ? '' : renderMarkdown(setup);

  const docs: KitDocPage[] = [];
  const docsMarkdown: KitDocSource[] = [];
  const docsDir = path.join(dir, 'docs');
  if (existsSync(docsDir)) {
    const files = (await fs.readdir(docsDir)).filter((f) => f.endsWith('.md')).sort();
    if (files.length === 0) problems.push(`${rel}/docs: holds no .md page (remove the folder for a kit without docs)`);
    for (const file of files) {
      const source = await fs.readFile(path.join(docsDir, file), 'utf8');
      const title = /^# (.+)$/m.exec(source)?.[1]?.trim();
      if (!title) problems.push(`${rel}/docs/${file}: must start with a "# Title" line`);
      const slug = file.replace(/^\d+-/, '').replace(/\.md$/, '');
      docs.push({ slug, title: title ?? file, html: renderMarkdown(source) });
      docsMarkdown.push({ slug, markdown: source });
    }
  }

  let release: KitRecord['release'] | undefined;
  try {
    const changelog = await fs.readFile(path.join(dir, 'CHANGELOG.md'), 'utf8');
    const top = CHANGELOG_HEADING.exec(changelog);
    if (!top) problems.push(`${rel}/CHANGELOG.md: needs "## <version> - <YYYY-MM-DD>" sections, newest first`);
    else if (meta && top[1] !== meta.version)
      problems.push(`${rel}/CHANGELOG.md: the newest entry is ${top[1]} but kit.json's version is ${meta.version}`);
    else {
      const rest = changelog.slice(top.index + top[0].length);
      const next = rest.search(/^## /m);
      release = {
        version: top[1]!,
        releasedOn: top[2]!,
        changelog: (next === -1 ? rest : rest.slice(0, next)).trim(),
        sourceDir: path.join(dir, 'source'),
      };
    }
  } catch {
    problems.push(`${rel}/CHANGELOG.md: file is missing`);
  }
  if (!existsSync(path.join(dir, 'source')))
    problems.push(`${rel}/source: the folder of the downloadable archive is missing`);

  const media: KitRecord['media'] = [];
  const screenshots: KitDetails['screenshots'] = [];
  for (const [i, shot] of (details?.screenshots ?? []).entries()) {
    const full = path.join(dir, 'screenshots', shot.file);
    const thumb = path.join(dir, 'screenshots', shot.file.replace(/(\.\w+)$/, '-thumb$1'));
    if (!existsSync(full)) {
      problems.push(
        `${rel}/details.json: screenshots.${i}.file: screenshots/${shot.file} does not exist (run npm run screenshots)`,
      );
      continue;
    }
    const fullKey = `screenshots/${sefId}/${(await fileHash(full)).slice(0, 16)}-${shot.file}`;
    media.push({ key: fullKey, file: full });
    let thumbKey = fullKey;
    if (existsSync(thumb)) {
      thumbKey = `screenshots/${sefId}/${(await fileHash(thumb)).slice(0, 16)}-${path.basename(thumb)}`;
      media.push({ key: thumbKey, file: thumb });
    }
    screenshots.push({ url: `media/${fullKey}`, thumbnail_url: `media/${thumbKey}`, alt: shot.alt, title: shot.title });
  }

  if (!meta || !details || !release || problems.length > before) return undefined;
  const sanitizedDetails: KitDetails = {
    ...details,
    heading: {
      ...details.heading,
      features: details.heading.features.map(sanitizeHtml),
      text: sanitizeHtml(details.heading.text),
    },
    screenshots,
  };
  const record = {
    sefId,
    title: meta.title,
    spot: meta.spot,
    features: meta.features,
    priceCents: meta.price,
    discountedFromCents: meta.discounted_from ?? null,
    paddlePriceId: meta.paddle_price_id,
    version: meta.version,
    details: sanitizedDetails,
    setupHtml,
    docs,
    position: meta.position,
    includes: [...new Set(meta.includes ?? [])],
    upgradeFloorCents: meta.upgrade_floor ?? null,
  };
  const githubRepository = meta.github_repository ?? null;
  // A single kit hashes as it did before bundles existed, and the repository joins the hash only
  // when set: an upgrade re-imports nothing.
  const { includes, upgradeFloorCents, ...single } = record;
  const base = includes.length > 0 || upgradeFloorCents !== null ? record : single;
  const licences: LicenceRecord[] = (meta.licenses ?? []).map((l, position) => ({
    tier: l.id,
    name: l.name,
    seats: l.seats,
    priceCents: l.price,
    paddlePriceId: l.paddle_price_id,
    activationLimit: l.activation_limit,
    position,
  }));
  // Likewise the tiers join the hash only when a kit has some.
  const withRepository = githubRepository ? { ...base, githubRepository } : base;
  const hashed = licences.length > 0 ? { ...withRepository, licences } : withRepository;
  const contentHash = createHash('sha256').update(JSON.stringify(hashed)).digest('hex');
  // The Markdown sources stay out of the hash: the HTML made from them is in it already.
  return {
    ...record,
    githubRepository,
    contentHash,
    setupMarkdown: setup ?? '',
    docsMarkdown,
    licences,
    media,
    release,
  };
}

/** Reads and validates every kit under `<catalogDir>/kits`; throws CatalogContentError listing all problems. */
export async function readCatalog(catalogDir: string): Promise<KitRecord[]> {
  const kitsDir = path.join(catalogDir, 'kits');
  const problems: string[] = [];
  let names: string[];
  try {
    names = (await fs.readdir(kitsDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    throw new CatalogContentError([`${kitsDir}: folder is missing`]);
  }
  const records: KitRecord[] = [];
  for (const name of names) {
    const rel = `kits/${name}`;
    if (!SEF_ID_PATTERN.test(name)) {
      problems.push(`${rel}: folder name must be a lowercase slug like "next-saas-starter" (it becomes the URL)`);
      continue;
    }
    const record = await readKit(path.join(kitsDir, name), name, rel, problems);
    if (record) records.push(record);
  }
  // A price id names one thing sold: a kit or one of its tiers, across the whole catalog.
  const seen = new Map<string, string>();
  for (const r of records) {
    const priced = [
      { id: r.paddlePriceId, field: 'paddle_price_id', label: `kits/${r.sefId}` },
      ...r.licences.map((l, i) => ({
        id: l.paddlePriceId,
        field: `licenses.${i}.paddle_price_id`,
        label: `kits/${r.sefId} (${l.tier})`,
      })),
    ];
    for (const { id, field, label } of priced) {
      const other = seen.get(id);
      if (other) problems.push(`kits/${r.sefId}/kit.json: ${field}: already used by ${other}`);
      seen.set(id, label);
    }
  }
  const bySef = new Map(records.map((r) => [r.sefId, r]));
  for (const r of records) {
    for (const sef of r.includes ?? []) {
      const included = bySef.get(sef);
      if (sef === r.sefId) problems.push(`kits/${r.sefId}/kit.json: includes: a bundle cannot include itself`);
      else if (!included) problems.push(`kits/${r.sefId}/kit.json: includes: no kit ${sef} in the catalog`);
      else if ((included.includes ?? []).length > 0)
        problems.push(`kits/${r.sefId}/kit.json: includes: ${sef} is a bundle itself (bundles hold single kits)`);
    }
  }
  if (problems.length > 0) throw new CatalogContentError(problems);
  return records;
}
