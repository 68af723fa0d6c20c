import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { KitChangelog as Changelog } from '../../../common/schemas/kit-versions.ts';
import { HtmlContent } from '../../components/html-content.tsx';
import { apiPost } from '../../lib/api.ts';
import { appUrl } from '../../lib/initial-data.ts';

const fetchChangelog = (sefId: string) => apiPost<Changelog>(`/api/item/${encodeURIComponent(sefId)}/changelog`);

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** The one switch for mail about new versions of every kit the buyer owns. */
function UpdateMailsSwitch({ enabled, sefId }: { enabled: boolean; sefId: string }) {
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (next: boolean) => apiPost<{ update_mails: boolean }>('/api/library/update-mails', { enabled: next }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['changelog', sefId] }),
  });
  return (
    <div className="form-check form-switch item-update-mails">
      <input
        className="form-check-input"
        type="checkbox"
        role="switch"
        id="update-mails"
        checked={change.isPending ? change.variables : enabled}
        aria-checked={change.isPending ? change.variables : enabled}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.target.checked)}
      />
      <label className="form-check-label" htmlFor="update-mails">
        E-mail me when a new version of my kits is out
      </label>
      {change.isError && (
        <p className="text-danger small mb-0" role="alert">
          The setting could not be saved. Try again.
        </p>
      )}
    </div>
  );
}

/**
 * The purchased kit's versions: the upgrade patches from versions the buyer downloaded to the
 * latest, then every version's notes, newest first, with its download (none for a yanked one,
 * which shows why it was withdrawn).
 */
export function KitChangelog({ sefId }: { sefId: string }) {
  const changelog = useQuery({ queryKey: ['changelog', sefId], queryFn: () => fetchChangelog(sefId) });
  const loaded = Boolean(changelog.data);
  // The update mail links here (#changelog, #upgrade-patch): the section arrives after the guide.
  useEffect(() => {
    if (!loaded) return;
    const id = window.location.hash.slice(1);
    if (id === 'changelog' || id === 'upgrade-patch') document.getElementById(id)?.scrollIntoView({ block: 'start' });
  }, [loaded]);
  if (!changelog.data) {
    return changelog.isError ? (
      <section id="changelog" className="item-changelog" aria-labelledby="changelog-heading">
        <h2 id="changelog-heading">Changelog</h2>
        <p className="text-body-secondary">The changelog could not be loaded. Reload the page to try again.</p>
      </section>
    ) : null;
  }
  const { versions, patches, latest, update_mails: updateMails } = changelog.data;
  return (
    <section id="changelog" className="item-changelog" aria-labelledby="changelog-heading">
      <h2 id="changelog-heading">Changelog</h2>
      <UpdateMailsSwitch enabled={updateMails} sefId={sefId} />
      <div id="upgrade-patch" className="item-upgrade">
        <h3 className="h5">Upgrade Patch</h3>
        {patches.length > 0 ? (
          <>
            <p>
              Already building on an older version? Apply the changes up to {latest} in the root of your copy with{' '}
              <code>git apply</code> (or <code>patch -p1</code>); binary files are listed at the top of the patch.
            </p>
            <ul className="list-unstyled mb-0">
              {patches.map((patch) => (
                <li key={patch.from}>
                  <a className="btn btn-outline-primary btn-sm" href={appUrl(patch.download)} download>
                    Upgrade Patch {patch.from} → {patch.to}
                  </a>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="mb-0 text-body-secondary">
            {latest
              ? `An upgrade patch to ${latest} appears here for each older version you download.`
              : 'No version is available yet.'}
          </p>
        )}
      </div>
      <ol className="list-unstyled item-versions">
        {versions.map((v) => (
          <li key={v.version} className={`item-version${v.yanked ? ' is-yanked' : ''}`}>
            <div className="item-version-head">
              <h3 className="h5 mb-0">{v.version}</h3>
              <span className="text-body-secondary small">{v.released_on}</span>
              {v.version === latest && <span className="badge text-bg-success">Latest</span>}
              {v.downloaded && <span className="badge text-bg-info">Downloaded</span>}
              {v.yanked && <span className="badge text-bg-warning">Yanked</span>}
              {v.download && (
                <a className="ms-auto btn btn-sm btn-outline-secondary" href={appUrl(v.download)} download>
                  Download {v.version} <span className="text-body-secondary">({size(v.size)})</span>
                </a>
              )}
            </div>
            {v.yanked && (
              <p className="item-yank-reason">Withdrawn by the seller{v.yank_reason ? `: ${v.yank_reason}` : '.'}</p>
            )}
            <HtmlContent html={v.notes_html} className="prose item-version-notes" />
          </li>
        ))}
      </ol>
    </section>
  );
}
