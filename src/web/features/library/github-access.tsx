import './github-access.scss';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { GithubResponse, PurchaseRepository } from '../../../common/schemas/github.ts';
import { Icon } from '../../components/icon.tsx';
import { ApiError, apiPost } from '../../lib/api.ts';
import { appUrl } from '../../lib/initial-data.ts';

/**
 * Kits delivered as private GitHub repositories: the buyer's GitHub connection (Connect GitHub,
 * Disconnect GitHub), each purchase's access, and how to clone on the item page. None of it shows
 * unless a purchase has a repository (GitHub delivery on).
 */

const GITHUB_KEY = ['github'] as const;

/** The connection and the repositories' access; read again every second while an invitation is on its way. */
export function useGithubAccess(enabled: boolean) {
  return useQuery({
    queryKey: GITHUB_KEY,
    queryFn: () => apiPost<GithubResponse>('/api/github', {}),
    enabled,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.data?.repositories.some((r) => r.status === 'pending') ? 1000 : false),
  });
}

/** What the callback's `?github=` outcome tells the buyer. */
const OUTCOMES: Record<string, { tone: 'success' | 'warning'; text: string }> = {
  connected: { tone: 'success', text: 'GitHub connected. Your repository invitations are on their way.' },
  denied: { tone: 'warning', text: 'GitHub connection cancelled: nothing was connected.' },
  state: { tone: 'warning', text: 'That GitHub connection could not be verified. Please start again.' },
  failed: { tone: 'warning', text: 'GitHub did not complete the connection. Please try again in a moment.' },
  taken: { tone: 'warning', text: 'That GitHub account is already connected to another Kitshop account.' },
  other_account: { tone: 'warning', text: 'Another GitHub account is connected: disconnect it first.' },
};

/** Takes the `?github=` outcome out of the address once, so a reload does not show it again. */
function useConnectOutcome() {
  const [params, setParams] = useSearchParams();
  const [outcome] = useState(() => OUTCOMES[params.get('github') ?? '']);
  useEffect(() => {
    if (!params.has('github')) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('github');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [params, setParams]);
  return outcome;
}

const connectUrl = (returnPath: string) => appUrl(`/github/connect?returnPath=${encodeURIComponent(returnPath)}`);

/** The GitHub card above the purchases: connect, or who is connected and disconnect. */
export function GithubConnection() {
  const access = useGithubAccess(true);
  const client = useQueryClient();
  const outcome = useConnectOutcome();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const disconnect = async () => {
    setBusy(true);
    setError(undefined);
    try {
      client.setQueryData(GITHUB_KEY, await apiPost<GithubResponse>('/api/github/disconnect', {}));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'We could not disconnect GitHub. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const data = access.data;
  const revoked = data?.repositories.filter((r) => r.status === 'revoked') ?? [];
  return (
    <section className="card github-connection mb-3" aria-labelledby="github-connection-title">
      <div className="card-body">
        <h2 id="github-connection-title" className="h6 fw-bold mb-1">
          <Icon name="github" size={18} /> GitHub repositories
        </h2>
        {outcome && (
          <p className={`alert alert-${outcome.tone} py-2 small`} role="status">
            {outcome.text}
          </p>
        )}
        {error && (
          <p className="alert alert-warning py-2 small" role="alert">
            {error}
          </p>
        )}
        {!data ? (
          <p className="small text-body-secondary mb-0">
            {access.isError
              ? 'Your GitHub connection could not be loaded right now.'
              : 'Loading your GitHub connection…'}
          </p>
        ) : data.connected ? (
          <div className="d-flex flex-wrap align-items-center gap-2 justify-content-between">
            <p className="small mb-0" data-testid="github-login">
              Connected as <strong>@{data.login}</strong>: kits with a repository invite this account as a reader.
            </p>
            <button type="button" className="btn btn-outline-secondary btn-sm" disabled={busy} onClick={disconnect}>
              Disconnect GitHub
            </button>
          </div>
        ) : (
          <div className="d-flex flex-wrap align-items-center gap-2 justify-content-between">
            <p className="small mb-0">
              Some of your kits also come as a private GitHub repository: connect your GitHub account to be invited and
              get updates with <code>git pull</code>.
            </p>
            <a href={connectUrl('user-panel')} className="btn btn-dark btn-sm">
              <Icon name="github" size={16} /> Connect GitHub
            </a>
          </div>
        )}
        {revoked.length > 0 && (
          <p className="small text-body-secondary mt-2 mb-0" data-testid="github-revoked">
            Access removed (refunded or revoked): {revoked.map((r) => r.name).join(', ')}.
          </p>
        )}
      </div>
    </section>
  );
}

/** One purchase's repository: where access stands, and the next step. */
export function RepositoryAccess({
  kitId,
  repository,
  titleId,
}: {
  kitId: number;
  repository: PurchaseRepository;
  titleId: string;
}) {
  const access = useGithubAccess(true);
  const current = access.data?.repositories.find((r) => r.kit_id === kitId) ?? repository;
  return (
    <div className="repository-access small" data-testid="repository-access" data-status={current.status}>
      <Icon name="github" size={16} />
      <span>
        <code>{current.name}</code>: <RepositoryStep repository={current} titleId={titleId} />
      </span>
    </div>
  );
}

function RepositoryStep({ repository, titleId }: { repository: PurchaseRepository; titleId: string }) {
  switch (repository.status) {
    case 'connect':
      return <>connect GitHub above to be invited.</>;
    case 'pending':
      return <>inviting your GitHub account…</>;
    case 'invited':
      return (
        <>
          invitation sent.{' '}
          <a href={repository.url ?? '#'} target="_blank" rel="noopener noreferrer" aria-describedby={titleId}>
            Accept the invitation on GitHub
          </a>
        </>
      );
    case 'active':
      return (
        <>
          you have access.{' '}
          <a href={repository.url ?? '#'} target="_blank" rel="noopener noreferrer" aria-describedby={titleId}>
            Open the repository
          </a>
        </>
      );
    case 'failed':
      return <>GitHub refused the invitation. Please contact support; the download still works.</>;
    default:
      return <>access revoked.</>;
  }
}

/** The clone URL, from the repository's page (GITHUB_WEB_URL may be a GitHub Enterprise server). */
const cloneUrl = (repository: PurchaseRepository) => {
  const page = repository.url?.replace(/\/invitations$/, '');
  return page ? `${page}.git` : `https://github.com/${repository.name}.git`;
};

/** The item page's "Clone the repository" steps. */
export function CloneInstructions({ repository, sefId }: { repository: PurchaseRepository; sefId: string }) {
  const access = useGithubAccess(repository.status !== 'connect');
  const current =
    access.data?.repositories.find((r) => r.name === repository.name && r.status !== 'revoked') ?? repository;
  return (
    <section className="card clone-instructions mb-4" aria-labelledby="clone-title">
      <div className="card-body">
        <h2 id="clone-title" className="h5 fw-bold">
          <Icon name="github" size={20} /> Clone the repository
        </h2>
        <p className="small mb-2">
          This kit is also a private GitHub repository, <code>{current.name}</code>: clone it to get updates with{' '}
          <code>git pull</code>, history and diffs.
        </p>
        <ol className="small mb-2">
          <li>
            {current.status === 'connect' ? (
              <>
                <a href={connectUrl(`user-panel/item/${sefId}`)}>Connect GitHub</a> to be invited.
              </>
            ) : (
              'Your GitHub account is connected.'
            )}
          </li>
          <li>
            Accept the invitation GitHub sends you
            {current.status === 'invited' && current.url && (
              <>
                {' '}
                (
                <a href={current.url} target="_blank" rel="noopener noreferrer">
                  open your invitation
                </a>
                )
              </>
            )}
            .
          </li>
          <li>Clone it:</li>
        </ol>
        <pre className="clone-command mb-0">
          <code>git clone {cloneUrl(current)}</code>
        </pre>
        {current.status === 'failed' && (
          <p className="alert alert-warning small py-2 mt-2 mb-0" role="status">
            GitHub refused the invitation. Please contact support; the download still works.
          </p>
        )}
      </div>
    </section>
  );
}
