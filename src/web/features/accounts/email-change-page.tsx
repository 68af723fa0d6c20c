import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { AccountCard, FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { confirmEmailChange } from './privacy-api.ts';

type Outcome = { state: 'loading' } | { state: 'success'; message: string } | { state: 'failed'; message: string };

/**
 * The e-mail change link's landing page (`/email/change?token=..&email=..`): posts the link once
 * (it is single-use) and shows the outcome.
 */
export function EmailChangePage() {
  useScreenTitleAndPageView('/email/change');
  const { search } = useLocation();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'loading' });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const params = new URLSearchParams(search);
    confirmEmailChange({ token: params.get('token') ?? '', email: params.get('email') ?? '' })
      .then((response) => setOutcome({ state: 'success', message: response.message }))
      .catch((error: unknown) =>
        setOutcome({ state: 'failed', message: errorMessage(error, 'This confirmation link is not valid.') }),
      );
  }, [search]);

  return (
    <AccountCard title="New e-mail address">
      {outcome.state === 'loading' && (
        <p className="text-body-secondary mb-0" role="status" aria-live="polite">
          Confirming your new e-mail address…
        </p>
      )}
      {outcome.state === 'failed' && (
        <FormAlert variant="warning" messages={[outcome.message]} testId="email-change-failed" />
      )}
      {outcome.state === 'success' && (
        <>
          <FormAlert variant="success" messages={[outcome.message]} testId="email-change-success" />
          <p className="mb-0">
            Go to your <Link to="/user-panel?tab=profile">profile</Link> or <Link to="/login">sign in</Link>.
          </p>
        </>
      )}
    </AccountCard>
  );
}
