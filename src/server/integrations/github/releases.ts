import { Readable } from 'node:stream';

/** GitHub's releases of a repository and their source tarballs (REST, `2022-11-28`). */

export type GithubReleases = { apiUrl: string; token: string };

export type GithubRelease = {
  tag_name: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  published_at: string | null;
};

const TIMEOUT_MS = 30_000;

export class GithubReleaseError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const headers = (github: GithubReleases) => ({
  accept: 'application/vnd.github+json',
  authorization: `Bearer ${github.token}`,
  'x-github-api-version': '2022-11-28',
  'user-agent': 'Kitshop (release import)',
});

const repositoryPath = (repository: string) => {
  const [owner, name] = repository.split('/');
  return `${encodeURIComponent(owner!)}/${encodeURIComponent(name!)}`;
};

/** `GET /repos/{owner}/{repo}/releases`: the newest 100, drafts left out. */
export async function fetchReleases(github: GithubReleases, repository: string): Promise<GithubRelease[]> {
  const response = await fetch(`${github.apiUrl}/repos/${repositoryPath(repository)}/releases?per_page=100`, {
    headers: headers(github),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok)
    throw new GithubReleaseError(
      `GitHub answered ${response.status} listing the releases of ${repository}.`,
      response.status,
    );
  const releases = (await response.json()) as GithubRelease[];
  return releases.filter((r) => !r.draft);
}

/**
 * `GET /repos/{owner}/{repo}/tarball/{ref}`: GitHub answers 302 to codeload, which fetch follows
 * (dropping the token on the way, as it should). The body is a stream; nothing is buffered.
 */
export async function fetchTarball(github: GithubReleases, repository: string, ref: string): Promise<Readable> {
  const response = await fetch(
    `${github.apiUrl}/repos/${repositoryPath(repository)}/tarball/${encodeURIComponent(ref)}`,
    { headers: headers(github), redirect: 'follow', signal: AbortSignal.timeout(10 * 60_000) },
  );
  if (!response.ok || !response.body)
    throw new GithubReleaseError(`GitHub answered ${response.status} for the tarball of ${ref}.`, response.status);
  return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
}
