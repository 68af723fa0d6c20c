import { createHash } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { KitChangelog } from '../../../common/schemas/kit-versions.ts';
import type { Database } from '../../db/open.ts';
import { downloads, upgradePatches } from '../../db/schema/library.ts';
import type { Storage } from '../../integrations/storage/storage.ts';
import { type KitVersionRow, latestDownloadable, listKitVersions } from '../catalog/catalog.versions.service.ts';
import { findDownload, findOwnedKit, wantsUpdateMails } from './library.service.ts';
import { makeUpgradePatch, readArchiveFiles } from './upgrade-patch.ts';

/**
 * What a buyer sees of a kit's versions: the changelog (newest first, their downloads marked,
 * yanked versions with the reason), each downloadable version's file, and upgrade patches from
 * the versions they downloaded to the latest, each made once per pair and kept in storage.
 */

async function downloadedVersionIds(db: Database, userId: number, kitId: number): Promise<Set<number>> {
  const rows = await db
    .selectDistinct({ versionId: downloads.versionId })
    .from(downloads)
    .where(and(eq(downloads.userId, userId), eq(downloads.kitId, kitId)));
  return new Set(rows.map((r) => r.versionId));
}

export async function kitChangelog(
  db: Database,
  userId: number,
  sefId: string,
): Promise<KitChangelog | 'unknown' | 'not_owned'> {
  const kit = await findOwnedKit(db, userId, sefId);
  if (typeof kit === 'string') return kit;
  const [versions, downloaded, updateMails] = await Promise.all([
    listKitVersions(db, kit.id),
    downloadedVersionIds(db, userId, kit.id),
    wantsUpdateMails(db, userId),
  ]);
  const latest = latestDownloadable(versions);
  return {
    latest: latest?.version ?? null,
    update_mails: updateMails,
    versions: versions.map((v) => ({
      version: v.version,
      released_on: v.releasedOn,
      notes_html: v.notesHtml,
      size: v.sizeBytes,
      format: v.format,
      downloaded: downloaded.has(v.id),
      yanked: v.yankedAt !== null,
      yank_reason: v.yankReason,
      download: v.yankedAt === null ? `/download/${kit.id}/versions/${encodeURIComponent(v.version)}` : null,
    })),
    patches: latest
      ? versions
          .filter((v) => downloaded.has(v.id) && v.createdAt < latest.createdAt)
          .map((v) => ({
            from: v.version,
            to: latest.version,
            download: `/download/${kit.id}/upgrade/${encodeURIComponent(v.version)}`,
          }))
      : [],
  };
}

/** A chosen version of a kit the user owns, if it can be downloaded (not yanked). */
export async function findVersionDownload(db: Database, userId: number, kitId: number, version: string) {
  const kit = await findDownload(db, userId, kitId);
  if (typeof kit === 'string') return kit;
  const versions = await listKitVersions(db, kitId);
  const chosen = versions.find((v) => v.version === version);
  if (!chosen) return 'no_version' as const;
  if (chosen.yankedAt) return { yanked: chosen.yankReason ?? 'withdrawn by the seller' };
  return { sefId: kit.sefId, version: chosen };
}

/** Patches being made in this process, so concurrent requests for one pair share one making. */
const making = new Map<string, Promise<PatchObject>>();

export type PatchObject = { storageKey: string; sizeBytes: number; sha256: string; filename: string };

/**
 * The upgrade patch from `from` (a version the buyer downloaded) to the newest downloadable
 * version. Made once per pair: in this process by sharing the promise, across instances by an
 * advisory lock held while one makes it and a unique row recording it.
 */
export async function upgradePatchFor(
  db: Database,
  storage: Storage,
  userId: number,
  kitId: number,
  from: string,
): Promise<PatchObject | 'unknown' | 'not_owned' | 'not_downloaded' | 'latest'> {
  const kit = await findDownload(db, userId, kitId);
  if (typeof kit === 'string') return kit;
  const versions = await listKitVersions(db, kitId);
  const older = versions.find((v) => v.version === from);
  const latest = latestDownloadable(versions);
  if (!older || !latest) return 'unknown';
  if (!(await downloadedVersionIds(db, userId, kitId)).has(older.id)) return 'not_downloaded';
  if (older.createdAt >= latest.createdAt) return 'latest';
  const pair = `${older.id}:${latest.id}`;
  let promise = making.get(pair);
  if (!promise) {
    promise = makeOnce(db, storage, kitId, kit.sefId, older, latest).finally(() => making.delete(pair));
    making.set(pair, promise);
  }
  return promise;
}

async function makeOnce(
  db: Database,
  storage: Storage,
  kitId: number,
  sefId: string,
  older: KitVersionRow,
  latest: KitVersionRow,
): Promise<PatchObject> {
  const filename = `${sefId}-${older.version}-to-${latest.version}.patch`;
  return db.transaction(async (tx) => {
    // One bigint key per pair of version ids (each below 2^31).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${older.id}::bigint * 2147483648 + ${latest.id})`);
    const [kept] = await tx
      .select({
        storageKey: upgradePatches.storageKey,
        sizeBytes: upgradePatches.sizeBytes,
        sha256: upgradePatches.sha256,
      })
      .from(upgradePatches)
      .where(and(eq(upgradePatches.fromVersionId, older.id), eq(upgradePatches.toVersionId, latest.id)));
    if (kept) return { ...kept, filename };
    const text = await diffArchives(storage, older, latest, sefId);
    const bytes = Buffer.from(text, 'utf8');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const storageKey = `patches/${sefId}/${filename.replace(/\.patch$/, '')}-${sha256.slice(0, 16)}.patch`;
    await storage.putPrivate(storageKey, bytes);
    await tx.insert(upgradePatches).values({
      kitId,
      fromVersionId: older.id,
      toVersionId: latest.id,
      storageKey,
      sizeBytes: bytes.length,
      sha256,
    });
    return { storageKey, sizeBytes: bytes.length, sha256, filename };
  });
}

/** Both archives copied from storage to a temporary folder (a zip is read by random access), then diffed. */
async function diffArchives(storage: Storage, older: KitVersionRow, latest: KitVersionRow, sefId: string) {
  const dir = await fs.mkdtemp(path.join(tmpdir(), 'kitshop-patch-'));
  try {
    const local = async (v: KitVersionRow) => {
      const archive = await findArchiveOrFail(storage, v);
      const file = path.join(dir, `${v.id}${v.format === 'zip' ? '.zip' : '.tar.gz'}`);
      await pipeline(archive, createWriteStream(file));
      return file;
    };
    const [oldFile, newFile] = await Promise.all([local(older), local(latest)]);
    const [before, after] = await Promise.all([
      readArchiveFiles({ file: oldFile, format: older.format, root: `${sefId}-${older.version}` }),
      readArchiveFiles({ file: newFile, format: latest.format, root: `${sefId}-${latest.version}` }),
    ]);
    return makeUpgradePatch(before, after, { kit: sefId, from: older.version, to: latest.version });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function findArchiveOrFail(storage: Storage, v: KitVersionRow) {
  const stream = await storage.readPrivateStream(v.storageKey);
  if (!stream) throw new Error(`archive of version ${v.version} missing from storage (${v.storageKey})`);
  return stream;
}
