import './seat-invitation-page.scss';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { InvitationResponse } from '../../../common/schemas/seats.ts';
import { useCurrentUser } from '../../app/session.ts';
import { Loading } from '../../components/load-states.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ApiError, apiGet, apiPost } from '../../lib/api.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { setReturnPath } from '../../lib/return-path.ts';

/**
 * /seat-invitation/:token: a colleague's invitation to a seat of their Team licence. Signed in with
 * the invited address, `Accept` puts the kit in the Purchases; signed out, sign in or sign up with
 * that address (the return path brings the visitor back here).
 */
export function SeatInvitationPage() {
  const { token = '' } = useParams();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useScreenTitleAndPageView('/seat-invitation/:token');
  const {
    data,
    error: loadError,
    isPending,
  } = useQuery({
    queryKey: ['seat-invitation', token],
    queryFn: () => apiGet<InvitationResponse>(`/api/seat-invitations/${encodeURIComponent(token)}`),
    retry: false,
    gcTime: 0,
  });
  const here = `seat-invitation/${token}`;
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const kit = await apiPost<{ sef_id: string; title: string }>(
        `/api/seat-invitations/${encodeURIComponent(token)}/accept`,
        {},
      );
      toast({ title: 'Seat Accepted', body: `${kit.title} is in your purchases.` });
      navigate(`/user-panel/item/${kit.sef_id}`);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Please try again in a moment.');
    } finally {
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (isPending) body = <Loading className="seat-invitation-loading">Loading the invitation…</Loading>;
  else if (!data)
    body = (
      <div className="alert alert-warning" role="alert">
        {loadError instanceof ApiError && loadError.status === 404
          ? 'This invitation link is not valid. It may have been cancelled, or a newer one was sent.'
          : 'We could not load this invitation right now. Please try again in a moment.'}
      </div>
    );
  else if (data.status !== 'pending')
    body = (
      <div className="alert alert-info" role="status">
        {data.status === 'active'
          ? 'This invitation was accepted already.'
          : 'This invitation was cancelled or the seat was freed.'}{' '}
        <Link to="/user-panel">Open your User Panel</Link>
      </div>
    );
  else
    body = (
      <>
        <p className="lead">
          {data.manager_name} invited <strong>{data.email}</strong> to a seat of their {data.licence} licence of{' '}
          <strong>{data.kit_title}</strong>: its downloads, documentation, setup guide and GitHub access, in your own
          User Panel.
        </p>
        {user ? (
          <>
            <button type="button" className="btn btn-primary btn-lg" onClick={accept} disabled={busy}>
              {busy ? 'Accepting…' : 'Accept'}
            </button>
            {error && (
              <p className="alert alert-warning mt-3" role="alert">
                {error}
              </p>
            )}
          </>
        ) : (
          <>
            <p>Sign in or sign up with {data.email} to accept.</p>
            <div className="d-flex flex-wrap gap-2">
              <Link to="/login" className="btn btn-primary" onClick={() => setReturnPath(here)}>
                Sign In to Accept
              </Link>
              <Link to="/register" className="btn btn-outline-primary" onClick={() => setReturnPath(here)}>
                Sign Up to Accept
              </Link>
            </div>
          </>
        )}
      </>
    );
  return (
    <div className="container section seat-invitation">
      <h1 className="h2 mb-3">Seat Invitation</h1>
      {body}
    </div>
  );
}
