import { createHash } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/open.ts';
import { kitLicences, kits, kitVersions } from '../../db/schema/catalog.ts';
import { enqueueMails } from '../../integrations/mail/outbox.ts';
import { kitUpdateMail, type MailContext } from '../../integrations/mail/templates.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { findContacts } from '../accounts/accounts.service.ts';
import { queueRepositoryAccessSync } from '../github/github.service.ts';
import { kitOwnerIds } from '../library/library.service.ts';
import {
  archiveRoot,
  buildArchive,
  CatalogContentError,
  type KitRecord,
  type LicenceRecord,
  readCatalog,
} from './catalog.read.ts';
import { CATALOG_CHANNEL, CONSOLE_CONTENT_HASH } from './catalog.service.ts';

export type ImportReport = {
  created: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
  /**
   * Kits the owner console changed since their import whose content changed too (or went away):
   * left as the console has them, unless the import is forced.
   */
  conflicts: string[];
};

export type ImportOptions = {
  /** Overwrites kits the console changed with the content (`npm run catalog -- --force`). */
  force?: boolean;
};

const IMPORT_LOCK = 7_318_220_915;

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Records a kit's version once. A version new to an existing kit is mailed to every owner, once
 * per owner and version (the version row is the guard), with its changelog entry.
 */
async function recordVersion(
  tx: Tx,
  kitId: number,
  release: KitRecord['release'],
  archive: { key: string; size: number; sha256: string },
  notify: { mail: MailContext; title: string } | undefined,
): Promise<void> {
  const inserted = await tx
    .insert(kitVersions)
    .values({
      kitId,
      version: release.version,
      releasedOn: release.releasedOn,
      changelog: release.changelog,
      storageKey: archive.key,
      sizeBytes: archive.size,
      sha256: archive.sha256,
    })
    .onConflictDoNothing()
    .returning({ id: kitVersions.id });
  if (inserted.length === 0 || !notify) return;
  const owners = await findContacts(tx, await kitOwnerIds(tx, kitId));
  if (owners.length === 0) return;
  const update = { title: notify.title, version: release.version, changelog: release.changelog };
  await enqueueMails(
    tx,
    owners.map((owner) => kitUpdateMail(notify.mail, owner, update)),
  );
}

/**
 * Writes a kit's licence tiers: each tier kept by its id in kit.json (its product id stays, carts
 * and order lines point at it), a tier gone from the content deactivated.
 */
async function syncLicences(tx: Tx, kitId: number, licences: LicenceRecord[]): Promise<void> {
  for (const licence of licences)
    await tx
      .insert(kitLicences)
      .values({ kitId, ...licence })
      .onConflictDoUpdate({
        target: [kitLicences.kitId, kitLicences.tier],
        set: { ...licence, active: true },
      });
  const kept = licences.map((l) => l.tier);
  await tx
    .update(kitLicences)
    .set({ active: false })
    .where(
      and(
        eq(kitLicences.kitId, kitId),
        eq(kitLicences.active, true),
        ...(kept.length > 0 ? [notInArray(kitLicences.tier, kept)] : []),
      ),
    );
}

/**
 * Imports the catalog idempotently in one transaction: new kits are created, changed ones updated,
 * kits gone from the content deactivated (never deleted: orders refer to them). Every running
 * server drops its catalog cache on the NOTIFY sent at commit.
 */
export async function importCatalog(
  db: Database,
  storage: Storage,
  catalogDir: string,
  mailContext?: MailContext,
  { force = false }: ImportOptions = {},
): Promise<ImportReport> {
  const records = await readCatalog(catalogDir);
  // A released version is never rebuilt with other bytes: its owners already hold it.
  const { rows: released } = await db.execute<{ sef_id: string; version: string; sha256: string }>(
    sql`SELECT k.sef_id, v.version, v.sha256 FROM kit_versions v JOIN kits k ON k.id = v.kit_id`,
  );
  const releasedSha = new Map(released.map((r) => [`${r.sef_id}@${r.version}`, r.sha256]));
  const archives = new Map<string, { key: string; size: number; sha256: string }>();
  const problems: string[] = [];
  for (const record of records) {
    const { version, releasedOn, sourceDir } = record.release;
    const bytes = await buildArchive(sourceDir, archiveRoot(record.sefId, version), releasedOn);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const before = releasedSha.get(`${record.sefId}@${version}`);
    if (before && before !== sha256) {
      problems.push(
        `kits/${record.sefId}/source: changed since version ${version} was released; add a new version to CHANGELOG.md and kit.json`,
      );
      continue;
    }
    for (const item of record.media) await storage.putPublicFile(item.key, item.file);
    const key = `archives/${record.sefId}/${record.sefId}-${version}-${sha256.slice(0, 16)}.zip`;
    await storage.putPrivate(key, bytes);
    archives.set(record.sefId, { key, size: bytes.length, sha256 });
  }
  if (problems.length > 0) throw new CatalogContentError(problems);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${IMPORT_LOCK})`);
    const existing = await tx
      .select({
        id: kits.id,
        sefId: kits.sefId,
        contentHash: kits.contentHash,
        active: kits.active,
        githubRepository: kits.githubRepository,
        consoleChangedAt: kits.consoleChangedAt,
        setupMarkdown: kits.setupMarkdown,
      })
      .from(kits);
    const bySef = new Map(existing.map((row) => [row.sefId, row]));
    const report: ImportReport = { created: [], updated: [], unchanged: [], removed: [], conflicts: [] };
    for (const { media: _media, release, licences, ...record } of records) {
      const row = bySef.get(record.sefId);
      if (!row) {
        const [created] = await tx.insert(kits).values(record).returning({ id: kits.id });
        await syncLicences(tx, created!.id, licences);
        await recordVersion(tx, created!.id, release, archives.get(record.sefId)!, undefined);
        report.created.push(record.sefId);
      } else if (row.consoleChangedAt && !force && row.contentHash !== record.contentHash) {
        // Changed in both places: the console's edit is the newer truth until the owner forces.
        report.conflicts.push(record.sefId);
      } else if (row.contentHash !== record.contentHash || !row.active || (force && row.consoleChangedAt)) {
        await tx
          .update(kits)
          .set({ ...record, active: true, consoleChangedAt: null, updatedAt: sql`now()` })
          .where(sql`${kits.id} = ${row.id}`);
        await syncLicences(tx, row.id, licences);
        await recordVersion(
          tx,
          row.id,
          release,
          archives.get(record.sefId)!,
          mailContext && { mail: mailContext, title: record.title },
        );
        // Another repository (or none): the kit's owners get the new one and lose the old.
        if (row.githubRepository !== record.githubRepository)
          for (const userId of await kitOwnerIds(tx, row.id)) await queueRepositoryAccessSync(tx, userId);
        report.updated.push(record.sefId);
      } else {
        // (A database from before versions were kept gets its first version row here, and one from
        // before Markdown sources were kept gets them, so the console can edit them.)
        await recordVersion(tx, row.id, release, archives.get(record.sefId)!, undefined);
        if (row.setupMarkdown === null)
          await tx
            .update(kits)
            .set({ setupMarkdown: record.setupMarkdown, docsMarkdown: record.docsMarkdown })
            .where(sql`${kits.id} = ${row.id}`);
        report.unchanged.push(record.sefId);
      }
    }
    const present = new Set(records.map((r) => r.sefId));
    for (const row of existing) {
      if (!row.active || present.has(row.sefId)) continue;
      // A kit made in the console was never content's to remove; one changed there is the owner's
      // to decide about.
      if (row.contentHash === CONSOLE_CONTENT_HASH) continue;
      if (row.consoleChangedAt && !force) report.conflicts.push(row.sefId);
      else {
        await tx.update(kits).set({ active: false, updatedAt: sql`now()` }).where(sql`${kits.id} = ${row.id}`);
        report.removed.push(row.sefId);
      }
    }
    if (report.created.length + report.updated.length + report.removed.length > 0) {
      await tx.execute(sql`SELECT pg_notify(${CATALOG_CHANNEL}, 'import')`);
    }
    return report;
  });
}
