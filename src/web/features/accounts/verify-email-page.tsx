import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { VerifyEmailResponse } from '../../../common/schemas/accounts.ts';
import { setCurrentUser } from '../../app/session.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { takeReturnPath } from '../../lib/return-path.ts';
import { AccountCard, FormAlert } from './account-ui.tsx';
import { errorMessage, verifyEmail } from './accounts-api.ts';

type Outcome = { state: 'loading' } | { state: 'success'; message: string } | { state: 'failed'; message: string };

const hasId = (user: VerifyEmailResponse['user']): user is { id: number; name: string } =>
  typeof (user as { id?: unknown }).id === 'number';

/**
 * The e-mail link's landing page: posts the link's own query to `{base}/email/verify` once (the
 * token is single-use, so React's development double effect must not send it twice) and shows the
 * outcome. A verified link signs the visitor in: they go to the stored return path or the cart.
 */
export function VerifyEmailPage() {
  useScreenTitleAndPageView('/email/verify');
  const { search } = useLocation();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'loading' });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    verifyEmail(search)
      .then((response) => {
        const { result, message } = response.data ?? { result: 'failed', message: '' };
        if (result !== 'success') {
          setOutcome({ state: 'failed', message: message || 'This verification link is not valid.' });
          return;
        }
        setOutcome({ state: 'success', message: message || 'Your email address has been verified.' });
        if (response.user && hasId(response.user)) {
          setCurrentUser({ id: response.user.id, name: response.user.name ?? '' });
          navigate(takeReturnPath('/cart'));
        }
      })
      .catch((error: unknown) => {
        setOutcome({ state: 'failed', message: errorMessage(error, 'This verification link is not valid.') });
      });
  }, [search, navigate]);

  return (
    <AccountCard title="Email verification">
      {outcome.state === 'loading' && (
        <p className="text-body-secondary mb-0" role="status" aria-live="polite">
          Verifying your email address…
        </p>
      )}
      {outcome.state === 'failed' && (
        <FormAlert variant="warning" messages={[outcome.message]} testId="verify-failed" />
      )}
      {outcome.state === 'success' && (
        <>
          <FormAlert variant="success" messages={[outcome.message]} testId="verify-success" />
          <p className="mb-0">
            You can now sign in using the <Link to="/login">login form</Link>.
          </p>
        </>
      )}
    </AccountCard>
  );
}
