import { type FormEvent, useState } from 'react';
import type { SignedInResponse } from '../../../common/schemas/account-security.ts';
import { Field } from '../../components/field.tsx';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { sendSignInCode } from './security-api.ts';

/**
 * The second step of a password (or Google) sign-in: a `Code` from the authenticator app, or a
 * recovery code. The session starts only once the server takes the code.
 */
export function SecondStepForm({
  onSignedIn,
  onRestart,
}: {
  onSignedIn: (response: SignedInResponse) => void;
  onRestart: () => void;
}) {
  const [code, setCode] = useState('');
  const [warning, setWarning] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) {
      setWarning('Enter the code from your authenticator app, or a recovery code.');
      return;
    }
    setWarning(null);
    setBusy(true);
    try {
      onSignedIn(await sendSignInCode(code));
    } catch (error) {
      setWarning(errorMessage(error, 'Something went wrong. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Two-step sign-in</h1>
      <p className="auth-lead">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      <FormAlert variant="warning" messages={[warning]} testId="login-warning" />
      <form noValidate onSubmit={submit}>
        <Field
          id="login-code"
          label="Code"
          spacing="mb-4"
          inputMode="text"
          autoComplete="one-time-code"
          autoFocus
          value={code}
          onChange={setCode}
        />
        <button type="submit" className="btn btn-primary w-100" disabled={busy}>
          Verify
        </button>
      </form>
      <p className="auth-links">
        <button type="button" className="btn btn-link p-0 align-baseline" onClick={onRestart}>
          Start again
        </button>
      </p>
    </>
  );
}
