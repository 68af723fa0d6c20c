import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PASSWORD_MIN } from '../../../common/constants.ts';
import { ResetPasswordSchema } from '../../../common/schemas/accounts.ts';
import { Field } from '../../components/field.tsx';
import { checkForm } from '../../lib/form-check.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { AccountCard, BackToLogin, FormAlert, useSend } from './account-ui.tsx';
import { resetPassword } from './accounts-api.ts';

const MISSING_TOKEN = 'Reset token is missing. Please use the link from your email.';

/**
 * Chooses a new password with the link's `token` and `email` query parameters. Without a token
 * the button stays disabled and says why. Success clears the fields and offers the login form.
 */
export function ResetPasswordPage() {
  useScreenTitleAndPageView('/reset-password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [visible, setVisible] = useState(false);
  const { busy, success, error, setError, send } = useSend();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!token) {
      setError(MISSING_TOKEN);
      return;
    }
    const check = checkForm(ResetPasswordSchema, { token, email, password, password_confirmation: confirmation });
    if (!check.ok) {
      setError(check.issues[0]!.message);
      return;
    }
    await send(
      () => resetPassword(check.data),
      'Password updated. You can now log in.',
      'Could not reset password.',
      () => {
        setEmail('');
        setPassword('');
        setConfirmation('');
      },
    );
  };

  const type = visible ? 'text' : 'password';
  return (
    <AccountCard title="Choose a new password" lead="Enter a new password for your account.">
      {!token && <FormAlert variant="danger" messages={[MISSING_TOKEN]} testId="reset-token-missing" />}
      {success && (
        <div className="alert alert-success" role="alert" data-testid="reset-success">
          {success} <Link to="/login">Go to login</Link>
        </div>
      )}
      <FormAlert variant="danger" messages={[error === MISSING_TOKEN ? null : error]} testId="reset-error" />
      <form onSubmit={submit}>
        <Field
          id="reset-email"
          label="Email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={setEmail}
        />
        <div className="mb-3">
          <label htmlFor="reset-password" className="form-label">
            New Password
          </label>
          <div className="input-group">
            <input
              id="reset-password"
              type={type}
              required
              minLength={PASSWORD_MIN}
              className="form-control"
              autoComplete="new-password"
              aria-describedby="reset-password-hint"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button
              type="button"
              className="btn btn-outline-secondary"
              aria-label={visible ? 'Hide passwords' : 'Show passwords'}
              aria-controls="reset-password reset-confirmation"
              onClick={() => setVisible((v) => !v)}
            >
              {visible ? 'Hide' : 'Show'}
            </button>
          </div>
          <div id="reset-password-hint" className="form-text">
            {`Minimum ${PASSWORD_MIN} characters.`}
          </div>
        </div>
        <Field
          id="reset-confirmation"
          label="Confirm New Password"
          spacing="mb-4"
          type={type}
          required
          minLength={PASSWORD_MIN}
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
        />
        <button type="submit" className="btn btn-primary w-100" disabled={!token || busy}>
          Reset Password
        </button>
      </form>
      <BackToLogin />
    </AccountCard>
  );
}
