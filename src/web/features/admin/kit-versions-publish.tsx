import { useState } from 'react';
import { ARCHIVE_MAX_BYTES } from '../../../common/schemas/kit-versions.ts';
import { useToast } from '../../components/toasts.tsx';
import { ApiError } from '../../lib/api.ts';
import { useGithubReleases, useImportRelease, usePublishVersion } from './kit-versions-api.ts';
import { ConfirmDialog, errorText, QueryState } from './ui.tsx';

const newKey = () => crypto.randomUUID();

/** The API names the field first (`version: ...`): that message goes under the field, others above the button. */
function fieldOf(error: unknown): string | null {
  return error instanceof ApiError ? (/^(version|notes|archive):/.exec(error.message)?.[1] ?? null) : null;
}

/** Publish Version: number, release notes (Markdown) and the archive, checked on the server before anything changes. */
export function PublishVersionForm({ sefId, latest }: { sefId: string; latest: string | null }) {
  const publish = usePublishVersion(sefId);
  const toast = useToast();
  const [key, setKey] = useState(newKey);
  const [version, setVersion] = useState('');
  const [notes, setNotes] = useState('');
  const [archive, setArchive] = useState<File | null>(null);
  const [formKey, setFormKey] = useState(0);
  const field = publish.isError ? fieldOf(publish.error) : null;
  const message = publish.isError ? errorText(publish.error) : null;
  const invalid = (name: string) => (field === name ? ' is-invalid' : '');
  const feedback = (name: string) =>
    field === name ? (
      <div className="invalid-feedback" id={`publish-${name}-error`}>
        {message}
      </div>
    ) : null;

  const submit = () => {
    if (!archive) return;
    publish.mutate(
      { version, notes, archive, key },
      {
        onSuccess: (answer) => {
          toast({
            title: 'Version published',
            body: `${answer.version} is live; buyers are being told by mail.`,
          });
          setKey(newKey());
          setVersion('');
          setNotes('');
          setArchive(null);
          setFormKey((n) => n + 1);
        },
      },
    );
  };

  return (
    <form
      key={formKey}
      className="card admin-publish-form mt-4"
      aria-labelledby="publish-version-title"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="card-body">
        <h3 id="publish-version-title" className="h5">
          Publish Version
        </h3>
        <p className="text-body-secondary small">
          The archive (.zip or .tar.gz, up to {ARCHIVE_MAX_BYTES / 1024 ** 2} MB) must hold one folder named{' '}
          <code>
            {sefId}-{version.trim() || 'X.Y.Z'}
          </code>
          ; it is checked before anything is published, then every buyer gets the notes by mail.
        </p>
        <div className="row g-3">
          <div className="col-md-4">
            <label htmlFor="publish-version" className="form-label">
              Version
            </label>
            <input
              id="publish-version"
              className={`form-control${invalid('version')}`}
              placeholder={latest ? `greater than ${latest}` : '1.0.0'}
              value={version}
              onChange={(e) => setVersion(e.target.value)}
              aria-describedby={field === 'version' ? 'publish-version-error' : undefined}
              required
            />
            {feedback('version')}
          </div>
          <div className="col-md-8">
            <label htmlFor="publish-archive" className="form-label">
              Archive
            </label>
            <input
              id="publish-archive"
              type="file"
              accept=".zip,.tar.gz,.tgz"
              className={`form-control${invalid('archive')}`}
              onChange={(e) => setArchive(e.target.files?.[0] ?? null)}
              aria-describedby={field === 'archive' ? 'publish-archive-error' : undefined}
              required
            />
            {feedback('archive')}
          </div>
          <div className="col-12">
            <label htmlFor="publish-notes" className="form-label">
              Release notes
            </label>
            <textarea
              id="publish-notes"
              className={`form-control${invalid('notes')}`}
              rows={6}
              maxLength={20_000}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              aria-describedby={field === 'notes' ? 'publish-notes-error' : 'publish-notes-hint'}
              required
            />
            <p id="publish-notes-hint" className="form-text mb-0">
              Markdown: what changed, what buyers should do.
            </p>
            {feedback('notes')}
          </div>
        </div>
        {message && !field && (
          <div className="alert alert-danger mt-3 mb-0" role="alert">
            {message}
          </div>
        )}
        <button type="submit" className="btn btn-primary mt-3" disabled={publish.isPending || !archive}>
          {publish.isPending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          {publish.isPending ? 'Publishing…' : 'Publish Version'}
        </button>
      </div>
    </form>
  );
}

/** Import Release: the repository's releases, and the chosen one published like an upload. */
export function ImportRelease({ sefId, repository }: { sefId: string; repository: string }) {
  const [open, setOpen] = useState(false);
  const [tag, setTag] = useState('');
  const [key, setKey] = useState(newKey);
  const releases = useGithubReleases(sefId, open);
  const importing = useImportRelease(sefId);
  const toast = useToast();
  const close = () => {
    setOpen(false);
    setTag('');
    importing.reset();
  };
  return (
    <>
      <button type="button" className="btn btn-outline-primary" onClick={() => setOpen(true)}>
        Import Release
      </button>
      <ConfirmDialog
        show={open}
        title={`Import a release of ${repository}`}
        confirmLabel="Publish Release"
        busy={importing.isPending}
        error={importing.isError ? errorText(importing.error) : null}
        disabled={!tag}
        onConfirm={() =>
          importing.mutate(
            { tag, key },
            {
              onSuccess: (answer) => {
                toast({
                  title: 'Release published',
                  body: `${answer.version} is live; buyers are being told by mail.`,
                });
                setKey(newKey());
                close();
              },
            },
          )
        }
        onClose={close}
      >
        <QueryState query={releases} label="releases" />
        {releases.data && releases.data.length === 0 && <p>The repository has no releases.</p>}
        {releases.data && releases.data.length > 0 && (
          <fieldset>
            <legend className="form-label fs-6">Release</legend>
            {releases.data.map((release) => (
              <div className="form-check" key={release.tag}>
                <input
                  className="form-check-input"
                  type="radio"
                  name="release"
                  id={`release-${release.tag}`}
                  value={release.tag}
                  checked={tag === release.tag}
                  disabled={release.problem !== null}
                  onChange={() => setTag(release.tag)}
                />
                <label className="form-check-label" htmlFor={`release-${release.tag}`}>
                  {release.name} <span className="text-body-secondary">({release.tag})</span>
                  {release.problem && <span className="d-block small text-body-secondary">{release.problem}</span>}
                </label>
              </div>
            ))}
          </fieldset>
        )}
      </ConfirmDialog>
    </>
  );
}
