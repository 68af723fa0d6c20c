import './licence-key-section.scss';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { HolderLicence, LicenceActivation } from '../../../common/schemas/licences.ts';
import { ApiError, apiPost } from '../../lib/api.ts';

const path = (sefId: string, tail = '') => `/api/licences/${encodeURIComponent(sefId)}${tail}`;
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

const STATUS_TEXT: Record<HolderLicence['status'], string> = {
  active: 'Active',
  inactive: 'Not activated yet',
  disabled: 'Disabled by the shop',
  expired: 'Expired',
  revoked: 'Revoked',
};

/** The key, and `Copy`: the clipboard where the browser allows it, else the key selected for the person to copy. */
function KeyLine({ licenceKey }: { licenceKey: string }) {
  const [copied, setCopied] = useState<'copied' | 'select' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(licenceKey);
      setCopied('copied');
    } catch {
      const code = document.getElementById('licence-key-value');
      if (code) window.getSelection()?.selectAllChildren(code);
      setCopied('select');
    }
  };
  return (
    <div className="licence-key-line">
      <code id="licence-key-value" className="licence-key-value">
        {licenceKey}
      </code>
      <button
        type="button"
        className="btn btn-outline-primary btn-sm"
        onClick={copy}
        aria-describedby="licence-key-copied"
      >
        Copy
      </button>
      <span id="licence-key-copied" className="small text-body-secondary" role="status">
        {copied === 'copied'
          ? 'Copied to the clipboard.'
          : copied === 'select'
            ? 'Selected: press Ctrl+C to copy.'
            : ''}
      </span>
    </div>
  );
}

function Activations({
  licence,
  busy,
  onDeactivate,
}: {
  licence: HolderLicence;
  busy: string | undefined;
  onDeactivate: (activation: LicenceActivation) => void;
}) {
  const { activations, activation_limit: limit } = licence;
  return (
    <>
      <h3 className="h6 fw-bold mt-3 mb-2">
        Activations ({activations.length} of {limit})
      </h3>
      {activations.length === 0 ? (
        <p className="small text-body-secondary mb-0">Not activated on any machine yet.</p>
      ) : (
        <ul className="list-unstyled licence-activations mb-0">
          {activations.map((activation) => (
            <li key={activation.id}>
              <div>
                <span className="fw-semibold">{activation.name}</span>
                <span className="small text-body-secondary d-block">Activated {when(activation.created_at)}</span>
              </div>
              <button
                type="button"
                className="btn btn-outline-secondary btn-sm"
                disabled={busy !== undefined}
                aria-label={`Deactivate ${activation.name}`}
                onClick={() => onDeactivate(activation)}
              >
                {busy === activation.id ? 'Deactivating…' : 'Deactivate'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * The item page's licence key: the key with `Copy`, its state, and the machines it is activated on
 * (through the licence API by the kit's own tooling), each with `Deactivate` to free its place.
 */
export function LicenceKeySection({ sefId }: { sefId: string }) {
  const key = ['licence', sefId];
  // Read afresh on every visit (activations come from elsewhere), nothing kept after the page closes.
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiPost<HolderLicence>(path(sefId), {}),
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const retry = () => void query.refetch();
  const client = useQueryClient();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();

  const deactivate = async (activation: LicenceActivation) => {
    setBusy(activation.id);
    setError(undefined);
    try {
      const licence = await apiPost<HolderLicence>(path(sefId, '/deactivate'), { instance_id: activation.id });
      client.setQueryData(key, licence);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'We could not deactivate it. Please try again.');
    } finally {
      setBusy(undefined);
    }
  };

  const licence = query.data;
  return (
    <section className="card licence-key mb-4" aria-labelledby="licence-key-title">
      <div className="card-body">
        <h2 id="licence-key-title" className="h5 fw-bold">
          Licence key
        </h2>
        {!licence ? (
          <p className="small text-body-secondary mb-0">
            {query.isError ? (
              <>
                Your licence key could not be loaded right now.{' '}
                <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={retry}>
                  Try Again
                </button>
              </>
            ) : (
              'Loading your licence key…'
            )}
          </p>
        ) : (
          <>
            <p className="small mb-2">
              The kit’s own tools ask for this key. Keep it to yourself: it is your licence.{' '}
              <span className={`licence-status is-${licence.status}`}>{STATUS_TEXT[licence.status]}</span>
            </p>
            <KeyLine licenceKey={licence.key} />
            {error && (
              <p className="alert alert-warning small py-2 mt-2 mb-0" role="alert">
                {error}
              </p>
            )}
            <Activations licence={licence} busy={busy} onDeactivate={deactivate} />
          </>
        )}
      </div>
    </section>
  );
}
