import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '../../app/session.ts';
import { ApiError } from '../../lib/api.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { setReturnPath } from '../../lib/return-path.ts';
import { AccountCard, FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { confirmEmailChange } from './privacy-api.ts';

type Outcome =
  | { state: 'ready' }
  | { state: 'sending' }
  | { state: 'success'; message: string }
  | { state: 'failed'; message: string; status?: number };

/**
 * The e-mail change link's landing page (`/email/change?token=..&email=..`). Opening it changes
 * nothing: the account that asked confirms with a click while signed in (a mail scanner or anyone
 * else who opens the link cannot). Signed out, it offers a sign-in that comes back here.
 */
export function EmailChangePage() {
  useScreenTitleAndPageView('/email/change');
  const { pathname, search } = useLocation();
  const user = useCurrentUser();
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'ready' });
  const params = new URLSearchParams(search);
  const newEmail = params.get('email') ?? '';
  const comeBack = () => setReturnPath(`${pathname}${search}`);

  const confirm = async () => {
    if (outcome.state === 'sending') return;
    setOutcome({ state: 'sending' });
    try {
      const response = await confirmEmailChange({ token: params.get('token') ?? '', email: newEmail });
      setOutcome({ state: 'success', message: response.message });
    } catch (error) {
      setOutcome({
        state: 'failed',
        message: errorMessage(error, 'The address could not be changed. Please try again.'),
        status: error instanceof ApiError ? error.status : undefined,
      });
    }
  };

  // Whether someone is signed in is known only once the browser has the page.
  if (!hydrated) return <AccountCard title="New e-mail address">{null}</AccountCard>;

  return (
    <AccountCard title="New e-mail address">
      {(!user || (outcome.state === 'failed' && outcome.status === 401)) && outcome.state !== 'success' && (
        <div data-testid="email-change-sign-in">
          <p>
            To move your account to <strong className="text-break">{newEmail || 'the new address'}</strong>, sign in to
            the account that asked for the change. You come back to this page to confirm it; nothing changes until then.
          </p>
          <Link to="/login" className="btn btn-primary" onClick={comeBack}>
            Sign in
          </Link>
        </div>
      )}
      {user && (outcome.state === 'ready' || outcome.state === 'sending') && (
        <div data-testid="email-change-confirm">
          <p>
            {user.name ? (
              <>
                You are signed in as <strong>{user.name}</strong>.{' '}
              </>
            ) : null}
            Confirm to move this account to <strong className="text-break">{newEmail || 'the new address'}</strong>:
            from then on you sign in with it, and no longer with your current address.
          </p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={outcome.state === 'sending'}
            onClick={() => void confirm()}
          >
            Confirm New Email
          </button>
        </div>
      )}
      {outcome.state === 'failed' && (
        <>
          <FormAlert variant="warning" messages={[outcome.message]} testId="email-change-failed" />
          {outcome.status === 403 && user && (
            // The next sign-in comes back to this link.
            <Link to="/exit" className="btn btn-outline-primary" onClick={comeBack}>
              Sign out
            </Link>
          )}
        </>
      )}
      {outcome.state === 'success' && (
        <>
          <FormAlert variant="success" messages={[outcome.message]} testId="email-change-success" />
          <p className="mb-0">
            Go to your <Link to="/user-panel?tab=profile">profile</Link>.
          </p>
        </>
      )}
    </AccountCard>
  );
}
