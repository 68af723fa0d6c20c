import { z } from 'zod';

/** Kit versions: the owner console's versions section and the buyer's changelog. */

export const YankSchema = z.object({
  reason: z.string().trim().min(1, 'say why buyers should not download it').max(500),
});

export const GithubReleaseImportSchema = z.object({
  tag: z.string().trim().min(1, 'choose a release').max(200),
  idempotency_key: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/, 'reload the page and try again'),
});

/** The publishing form's fields beside the archive (multipart). */
export const PublishFieldsSchema = z.object({
  version: z.string().trim().min(1, 'enter a version such as 1.4.0').max(64),
  notes: z.string().max(20_000),
  idempotency_key: z.string(),
});

export const UpdateMailsSchema = z.object({ enabled: z.boolean() });

export const ARCHIVE_MAX_BYTES = 200 * 1024 * 1024;

export type OwnerKitVersion = {
  id: number;
  version: string;
  released_on: string;
  published_at: string;
  size: number;
  sha256: string;
  format: 'zip' | 'tar.gz';
  downloads: number;
  yanked_at: string | null;
  yank_reason: string | null;
};

export type OwnerKitVersions = {
  kit: { id: number; sef_id: string; title: string; github_repository: string | null };
  /** Import Release is offered (GitHub delivery configured and the kit has a repository). */
  github_releases: boolean;
  versions: OwnerKitVersion[];
};

export type GithubReleaseChoice = {
  tag: string;
  name: string;
  published_at: string | null;
  /** The version it would publish, or null when its tag is no semantic version. */
  version: string | null;
  /** Why it cannot be published (already there, not greater than the latest), or null. */
  problem: string | null;
};

export type ChangelogVersion = {
  version: string;
  released_on: string;
  notes_html: string;
  size: number;
  format: 'zip' | 'tar.gz';
  downloaded: boolean;
  yanked: boolean;
  yank_reason: string | null;
  /** Path (under the base path) of this version's download; null for a yanked one. */
  download: string | null;
};

export type KitChangelog = {
  latest: string | null;
  /** The buyer gets mail about new versions (one switch for all their kits). */
  update_mails: boolean;
  versions: ChangelogVersion[];
  /** Upgrade patches to the latest, one per older version the buyer downloaded. */
  patches: { from: string; to: string; download: string }[];
};
