import { and, desc, eq, sql } from 'drizzle-orm';
import semver from 'semver';
import type { Database, Reader } from '../../db/open.ts';
import { kits, kitVersions } from '../../db/schema/catalog.ts';
import { AppError } from '../../http/errors.ts';
import { enqueueMailToEachSql } from '../../integrations/mail/outbox.ts';
import { kitReleaseMail, type MailContext } from '../../integrations/mail/templates.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import type { ArchiveFormat } from '../../lib/archive-reader.ts';
import { renderMarkdown } from '../../lib/html.ts';
import { mailableAddressesSql } from '../accounts/accounts.service.ts';
import { updateMailRecipientIdsSql } from '../library/library.service.ts';
import { ArchiveRejectedError, checkArchive } from './archive-checks.ts';
import { archiveRoot } from './catalog.read.ts';
import { CATALOG_CHANNEL } from './catalog.service.ts';

/**
 * A kit's versions as the owner console publishes and withdraws them, and as buyers read them.
 * Publishing: the archive (already on disk, hashed) is checked, put in storage under a
 * content-addressed key, and recorded with its notes in one transaction that also queues the
 * update mail to every buyer and tells every instance to drop its catalog. Whatever fails leaves
 * neither a row nor a stored object behind.
 */

export type VersionKit = { id: number; sefId: string; title: string; githubRepository: string | null };

export async function findVersionKit(db: Pick<Database, 'select'>, sefId: string): Promise<VersionKit | undefined> {
  const [kit] = await db
    .select({ id: kits.id, sefId: kits.sefId, title: kits.title, githubRepository: kits.githubRepository })
    .from(kits)
    .where(eq(kits.sefId, sefId))
    .limit(1);
  return kit;
}

export type KitVersionRow = {
  id: number;
  version: string;
  releasedOn: string;
  createdAt: Date;
  sizeBytes: number;
  sha256: string;
  format: 'zip' | 'tar.gz';
  storageKey: string;
  /** Sanitised HTML of the notes. */
  notesHtml: string;
  yankedAt: Date | null;
  yankReason: string | null;
};

/** Every version of a kit, newest first (yanked ones too). */
export async function listKitVersions(db: Pick<Database, 'select'>, kitId: number): Promise<KitVersionRow[]> {
  const rows = await db
    .select({
      id: kitVersions.id,
      version: kitVersions.version,
      releasedOn: kitVersions.releasedOn,
      createdAt: kitVersions.createdAt,
      sizeBytes: kitVersions.sizeBytes,
      sha256: kitVersions.sha256,
      format: kitVersions.format,
      storageKey: kitVersions.storageKey,
      notesHtml: kitVersions.notesHtml,
      changelog: kitVersions.changelog,
      yankedAt: kitVersions.yankedAt,
      yankReason: kitVersions.yankReason,
    })
    .from(kitVersions)
    .where(eq(kitVersions.kitId, kitId))
    .orderBy(desc(kitVersions.createdAt), desc(kitVersions.id));
  // Versions imported from content keep their changelog entry as Markdown only.
  return rows.map(({ changelog, ...row }) => ({ ...row, notesHtml: row.notesHtml || renderMarkdown(changelog) }));
}

/** The newest version buyers may download (not yanked), or undefined. */
export const latestDownloadable = (versions: KitVersionRow[]) => versions.find((v) => v.yankedAt === null);

/** A version number as published: plain semver (`1.4.0`, `2.0.0-beta.1`); a tag's `v` is dropped. */
export function cleanVersion(input: string): string | null {
  const cleaned = semver.clean(input.trim());
  return cleaned && semver.valid(cleaned) ? cleaned : null;
}

/** The highest version a kit ever had (yanked ones count: a number is never reused). */
export function highestVersion(versions: string[]): string | undefined {
  return semver.rsort(versions.filter((v) => semver.valid(v)))[0];
}

/** Why a version number cannot be published after these, or null. */
export function versionProblem(version: string, existing: string[]): string | null {
  const clean = cleanVersion(version);
  if (!clean) return 'version: use a semantic version such as 1.4.0.';
  if (existing.includes(clean)) return `version: ${clean} is already published.`;
  const highest = highestVersion(existing);
  if (highest && !semver.gt(clean, highest)) return `version: must be greater than the latest, ${highest}.`;
  return null;
}

export const NOTES_MAX = 20_000;

export type PublishInput = {
  kit: VersionKit;
  version: string;
  notes: string;
  idempotencyKey: string;
  upload: { file: string; format: ArchiveFormat; sha256: string; sizeBytes: number };
};

export type PublishOutcome = { created: boolean; version: { id: number; version: string } };

const KEY_FORMAT = /^[A-Za-z0-9_-]{8,100}$/;
const CONTENT_TYPES: Record<ArchiveFormat, string> = { zip: 'application/zip', 'tar.gz': 'application/gzip' };
export const contentTypeOf = (format: ArchiveFormat) => CONTENT_TYPES[format];
export const extensionOf = (format: ArchiveFormat) => (format === 'zip' ? '.zip' : '.tar.gz');

async function versionsOf(db: Reader, kitId: number) {
  const { rows } = await db.execute<{ id: number; version: string; idempotency_key: string | null }>(
    sql`SELECT id, version, idempotency_key FROM kit_versions WHERE kit_id = ${kitId}`,
  );
  return rows;
}

/** The field checks of the publishing form, before the archive is read. */
export async function checkRelease(
  db: Reader,
  kitId: number,
  input: { version: string; notes: string; idempotencyKey: string },
): Promise<{ existing?: { id: number; version: string }; version: string }> {
  if (!KEY_FORMAT.test(input.idempotencyKey))
    throw new AppError('invalid_data', 'idempotency_key: reload the page and publish again.');
  const rows = await versionsOf(db, kitId);
  const same = rows.find((r) => r.idempotency_key === input.idempotencyKey);
  if (same) return { existing: { id: same.id, version: same.version }, version: same.version };
  const problem = versionProblem(
    input.version,
    rows.map((r) => r.version),
  );
  if (problem) throw new AppError(problem.includes('already') ? 'conflict' : 'invalid_data', problem);
  if (input.notes.trim() === '') throw new AppError('invalid_data', 'notes: write what changed in this version.');
  if (input.notes.length > NOTES_MAX)
    throw new AppError('invalid_data', `notes: at most ${NOTES_MAX.toLocaleString('en-US')} characters.`);
  return { version: cleanVersion(input.version)! };
}

/** The first key of the (int, int) advisory lock a kit's publishing holds; the kit id is the second. */
const PUBLISH_LOCK = 2_300_023;

export async function publishVersion(
  db: Database,
  storage: Storage,
  mail: MailContext,
  input: PublishInput,
  /** Runs in the publishing transaction once the version row exists (the owner's activity entry). */
  alsoInTransaction: (tx: Reader, version: { id: number; version: string }) => Promise<void>,
): Promise<PublishOutcome> {
  const { kit, upload } = input;
  const checked = await checkRelease(db, kit.id, input);
  if (checked.existing) return { created: false, version: checked.existing };
  const version = checked.version;
  try {
    await checkArchive(upload.file, upload.format, archiveRoot(kit.sefId, version));
  } catch (error) {
    if (error instanceof ArchiveRejectedError) throw new AppError('invalid_data', `archive: ${error.message}`);
    throw error;
  }
  const storageKey = `archives/${kit.sefId}/${kit.sefId}-${version}-${upload.sha256.slice(0, 16)}${extensionOf(upload.format)}`;
  await storage.putPrivateFile(storageKey, upload.file, contentTypeOf(upload.format));
  try {
    return await db.transaction(async (tx) => {
      // Two instances publishing the same kit take turns; the second sees the first's row.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${PUBLISH_LOCK}, ${kit.id})`);
      const again = await checkRelease(tx, kit.id, input);
      if (again.existing) return { created: false, version: again.existing };
      const notesHtml = renderMarkdown(input.notes);
      const [row] = await tx
        .insert(kitVersions)
        .values({
          kitId: kit.id,
          version,
          releasedOn: new Date().toISOString().slice(0, 10),
          changelog: input.notes,
          notesHtml,
          format: upload.format,
          storageKey,
          sizeBytes: upload.sizeBytes,
          sha256: upload.sha256,
          idempotencyKey: input.idempotencyKey,
        })
        .returning({ id: kitVersions.id, version: kitVersions.version });
      // The version is now the console's: an import of older content reports it instead of undoing it.
      const [current] = await tx
        .select({ version: kits.version, setupMarkdown: kits.setupMarkdown })
        .from(kits)
        .where(eq(kits.id, kit.id));
      const guide =
        current?.setupMarkdown &&
        guideFollowingVersion(
          current.setupMarkdown,
          archiveRoot(kit.sefId, current.version),
          archiveRoot(kit.sefId, version),
        );
      await tx
        .update(kits)
        .set({
          version,
          consoleChangedAt: sql`now()`,
          updatedAt: sql`now()`,
          ...(guide && guide !== current?.setupMarkdown
            ? { setupMarkdown: guide, setupHtml: renderMarkdown(guide) }
            : {}),
        })
        .where(eq(kits.id, kit.id));
      const release = kitReleaseMail(mail, { title: kit.title, sefId: kit.sefId, version, notes: input.notes });
      await tx.execute(
        enqueueMailToEachSql(
          { ...release, ref: `kit-version:${row!.id}` },
          mailableAddressesSql(updateMailRecipientIdsSql(kit.id)),
        ),
      );
      await tx.execute(sql`SELECT pg_notify(${CATALOG_CHANNEL}, 'version')`);
      await alsoInTransaction(tx, row!);
      return { created: true, version: row! };
    });
  } catch (error) {
    await forgetUnusedObject(db, storage, storageKey);
    throw error;
  }
}

/**
 * The setup guide's `unzip <sef>-<version>.zip && cd <sef>-<version>` line, moved to a new version:
 * the guide names the file buyers download and the folder it unpacks into. Other lines stay.
 */
export function guideFollowingVersion(markdown: string, oldRoot: string, newRoot: string): string {
  return markdown.replace(/^unzip\s+(\S+)\s*&&\s*cd\s+(\S+?)\/?(\s*)$/m, (line, zip, folder, rest) =>
    zip === `${oldRoot}.zip` && folder === oldRoot ? `unzip ${newRoot}.zip && cd ${newRoot}${rest}` : line,
  );
}

/** Deletes a stored archive no version row points at (a double click's twin may have recorded it). */
async function forgetUnusedObject(db: Reader, storage: Storage, storageKey: string): Promise<void> {
  const { rows } = await db.execute(sql`SELECT 1 FROM kit_versions WHERE storage_key = ${storageKey} LIMIT 1`);
  if (rows.length === 0) await storage.deletePrivate(storageKey);
}

/**
 * Withdraws a version from new downloads with a reason buyers see. The kit's current version (what
 * the store shows) becomes the newest one still downloadable.
 */
export async function yankVersion(
  tx: Reader,
  kitId: number,
  version: string,
  reason: string,
): Promise<'yanked' | 'already' | 'unknown'> {
  const { rows } = await tx.execute<{ yanked: boolean }>(sql`
    SELECT yanked_at IS NOT NULL AS yanked FROM kit_versions WHERE kit_id = ${kitId} AND version = ${version} FOR UPDATE`);
  if (rows.length === 0) return 'unknown';
  if (rows[0]!.yanked) return 'already';
  await tx.execute(sql`
    UPDATE kit_versions SET yanked_at = now(), yank_reason = ${reason} WHERE kit_id = ${kitId} AND version = ${version}`);
  await tx.execute(sql`
    UPDATE kits SET version = COALESCE((SELECT v.version FROM kit_versions v WHERE v.kit_id = ${kitId}
                                         AND v.yanked_at IS NULL ORDER BY v.created_at DESC, v.id DESC LIMIT 1), version),
                    updated_at = now()
     WHERE id = ${kitId}`);
  await tx.execute(sql`SELECT pg_notify(${CATALOG_CHANNEL}, 'yank')`);
  return 'yanked';
}

/** One version of a kit by its number (yanked or not). */
export async function findKitVersion(db: Pick<Database, 'select'>, kitId: number, version: string) {
  const [row] = await db
    .select({
      id: kitVersions.id,
      version: kitVersions.version,
      storageKey: kitVersions.storageKey,
      sha256: kitVersions.sha256,
      format: kitVersions.format,
      yankedAt: kitVersions.yankedAt,
    })
    .from(kitVersions)
    .where(and(eq(kitVersions.kitId, kitId), eq(kitVersions.version, version)))
    .limit(1);
  return row;
}

/** A version's archive by id: its storage key, format and the folder it unpacks into. */
export async function findVersionArchive(db: Pick<Database, 'select'>, versionId: number) {
  const [row] = await db
    .select({
      id: kitVersions.id,
      version: kitVersions.version,
      storageKey: kitVersions.storageKey,
      format: kitVersions.format,
      sefId: kits.sefId,
    })
    .from(kitVersions)
    .innerJoin(kits, eq(kits.id, kitVersions.kitId))
    .where(eq(kitVersions.id, versionId))
    .limit(1);
  return row && { ...row, root: archiveRoot(row.sefId, row.version) };
}
