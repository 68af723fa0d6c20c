import { useState } from 'react';
import type { OwnerKitVersion } from '../../../common/schemas/kit-versions.ts';
import { useToast } from '../../components/toasts.tsx';
import { CardTable, countColumn } from './data-table.tsx';
import { dateTime } from './format.ts';
import { useKitVersions, useYankVersion } from './kit-versions-api.ts';
import { ImportRelease, PublishVersionForm } from './kit-versions-publish.tsx';
import { ConfirmDialog, EmptyState, errorText, QueryState, TextArea } from './ui.tsx';

/** 1536 -> "1.5 KB" */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * A kit's versions on its console page: the list (number, date, size, SHA-256, downloads), Yank
 * with a reason, Publish Version from an uploaded archive, and Import Release from GitHub.
 */
export function KitVersions({ sefId }: { sefId: string }) {
  const versions = useKitVersions(sefId);
  const yank = useYankVersion(sefId);
  const toast = useToast();
  const [target, setTarget] = useState<OwnerKitVersion | null>(null);
  const reason = useState('');

  const close = () => {
    setTarget(null);
    reason[1]('');
    yank.reset();
  };
  const submitYank = () => {
    if (!target) return;
    yank.mutate(
      { version: target.version, reason: reason[0] },
      {
        onSuccess: () => {
          toast({ title: 'Version yanked', body: `${target.version} is no longer offered for download.` });
          close();
        },
      },
    );
  };

  return (
    <section className="admin-kit-versions" aria-labelledby="kit-versions-title">
      <div className="admin-page-header">
        <h2 id="kit-versions-title" className="h4 mb-0">
          Versions
        </h2>
        {versions.data?.github_releases && (
          <div className="admin-page-actions">
            <ImportRelease sefId={sefId} repository={versions.data.kit.github_repository ?? ''} />
          </div>
        )}
      </div>
      <QueryState query={versions} label="versions" />
      {versions.data && versions.data.versions.length === 0 && <EmptyState>No version published yet.</EmptyState>}
      {versions.data && versions.data.versions.length > 0 && (
        <CardTable
          rows={versions.data.versions}
          rowKey={(v) => v.id}
          rowClassName={(v) => (v.yanked_at ? 'admin-row-muted' : undefined)}
          columns={[
            {
              header: 'Version',
              className: 'text-nowrap',
              cell: (v) => (
                <>
                  <strong>{v.version}</strong>
                  {v.yanked_at && <span className="badge text-bg-warning ms-2">Yanked</span>}
                  {v.yank_reason && <div className="small text-body-secondary text-wrap">{v.yank_reason}</div>}
                </>
              ),
            },
            { header: 'Published', className: 'text-nowrap', cell: (v) => dateTime(v.published_at) },
            { header: 'Size', className: 'text-nowrap text-end', cell: (v) => fileSize(v.size) },
            {
              header: 'SHA-256',
              cell: (v) => (
                <code className="admin-sha" title={v.sha256}>
                  {v.sha256}
                </code>
              ),
            },
            countColumn('Downloads', 'downloads'),
            {
              header: 'Actions',
              className: 'text-nowrap',
              cell: (v) =>
                v.yanked_at ? null : (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    aria-label={`Yank ${v.version}`}
                    onClick={() => setTarget(v)}
                  >
                    Yank
                  </button>
                ),
            },
          ]}
        />
      )}
      <PublishVersionForm sefId={sefId} latest={versions.data?.versions[0]?.version ?? null} />
      <ConfirmDialog
        show={target !== null}
        title={`Yank ${target?.version ?? ''}`}
        confirmLabel="Yank Version"
        variant="danger"
        busy={yank.isPending}
        error={yank.isError ? errorText(yank.error) : null}
        disabled={reason[0].trim() === ''}
        onConfirm={submitYank}
        onClose={close}
      >
        <p>New downloads stop; buyers who have this version see your reason in their changelog.</p>
        <TextArea
          id="yank-reason"
          label="Reason"
          hint="Shown to buyers, e.g. “Breaks sign-in on Safari; use 1.4.1.”"
          state={reason}
          required
        />
      </ConfirmDialog>
    </section>
  );
}
