import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GithubReleaseChoice, OwnerKitVersions } from '../../../common/schemas/kit-versions.ts';
import { ApiError, apiGet, apiPost } from '../../lib/api.ts';
import { appUrl, initialData } from '../../lib/initial-data.ts';

/** The versions section's calls (under the console's `admin` query key, so one invalidation refreshes all). */

const versionsPath = (sefId: string) => `/api/admin/kits/${encodeURIComponent(sefId)}/versions`;

export const useKitVersions = (sefId: string) =>
  useQuery({
    queryKey: ['admin', 'kit-versions', sefId],
    queryFn: () => apiGet<OwnerKitVersions>(versionsPath(sefId)),
  });

export const useGithubReleases = (sefId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['admin', 'github-releases', sefId],
    enabled,
    queryFn: () => apiGet<GithubReleaseChoice[]>(`/api/admin/kits/${encodeURIComponent(sefId)}/github-releases`),
  });

type Published = OwnerKitVersions & { created: boolean; version: string };

/** The archive goes as multipart, streamed by the browser; the key makes a double click publish once. */
async function uploadVersion(
  sefId: string,
  input: { version: string; notes: string; archive: File; key: string },
): Promise<Published> {
  const form = new FormData();
  form.append('idempotency_key', input.key);
  form.append('version', input.version);
  form.append('notes', input.notes);
  form.append('archive', input.archive, input.archive.name);
  const response = await fetch(appUrl(versionsPath(sefId)), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'X-CSRF-TOKEN': initialData.csrf },
    body: form,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok)
    throw new ApiError(response.status, (data as { message?: string } | null)?.message ?? 'Request failed');
  return data as Published;
}

function useVersionAction<Input, Output>(send: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }) });
}

export const usePublishVersion = (sefId: string) =>
  useVersionAction((input: { version: string; notes: string; archive: File; key: string }) =>
    uploadVersion(sefId, input),
  );

export const useYankVersion = (sefId: string) =>
  useVersionAction(({ version, reason }: { version: string; reason: string }) =>
    apiPost<OwnerKitVersions>(`${versionsPath(sefId)}/${encodeURIComponent(version)}/yank`, { reason }),
  );

export const useImportRelease = (sefId: string) =>
  useVersionAction(({ tag, key }: { tag: string; key: string }) =>
    apiPost<Published>(`/api/admin/kits/${encodeURIComponent(sefId)}/github-releases`, { tag, idempotency_key: key }),
  );
