import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ForgotPasswordSchema } from '../../../common/schemas/accounts.ts';
import { checkForm } from '../../lib/form-check.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { AccountCard, Field, FormAlert } from './account-ui.tsx';
import { errorMessage, forgotPassword } from './accounts-api.ts';

/** Asks for a reset link. The button waits for an address and is disabled while sending. */
export function ForgotPasswordPage() {
  useScreenTitleAndPageView('/forgot-password');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !email.trim()) return;
    const check = checkForm(ForgotPasswordSchema, { email });
    if (!check.ok) {
      setSuccess(null);
      setError(check.issues[0]!.message);
      return;
    }
    setBusy(true);
    setSuccess(null);
    setError(null);
    try {
      await forgotPassword(check.data);
      setSuccess('A reset link has been sent.');
      setEmail('');
    } catch (failure) {
      setError(errorMessage(failure, 'Could not send reset link.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AccountCard
      title="Forgot your password?"
      lead="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <FormAlert variant="success" messages={[success]} testId="forgot-success" />
      <FormAlert variant="danger" messages={[error]} testId="forgot-error" />
      <form onSubmit={submit}>
        <Field
          id="forgot-email"
          label="Email"
          spacing="mb-4"
          type="email"
          required
          autoComplete="email"
          placeholder="you@company.com"
          value={email}
          onChange={setEmail}
        />
        <button type="submit" className="btn btn-primary w-100" disabled={busy || !email.trim()}>
          {busy ? 'Sending…' : 'Send Reset Link'}
        </button>
      </form>
      <p className="mt-4 mb-0 text-center">
        <Link to="/login">Back to login</Link>
      </p>
    </AccountCard>
  );
}
