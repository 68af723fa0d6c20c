import { type FormEvent, useState } from 'react';
import { ForgotPasswordSchema } from '../../../common/schemas/accounts.ts';
import { checkForm } from '../../lib/form-check.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { AccountCard, BackToLogin, EmailField, FormAlert, useSend } from './account-ui.tsx';
import { forgotPassword } from './accounts-api.ts';

/** Asks for a reset link. The button waits for an address and is disabled while sending. */
export function ForgotPasswordPage() {
  useScreenTitleAndPageView('/forgot-password');
  const [email, setEmail] = useState('');
  const { busy, success, setSuccess, error, setError, send } = useSend();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !email.trim()) return;
    const check = checkForm(ForgotPasswordSchema, { email });
    if (!check.ok) {
      setSuccess(null);
      setError(check.issues[0]!.message);
      return;
    }
    await send(
      () => forgotPassword(check.data),
      'A reset link has been sent.',
      'Could not send reset link.',
      () => setEmail(''),
    );
  };

  return (
    <AccountCard
      title="Forgot your password?"
      lead="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <FormAlert variant="success" messages={[success]} testId="forgot-success" />
      <FormAlert variant="danger" messages={[error]} testId="forgot-error" />
      <form onSubmit={submit}>
        <EmailField id="forgot-email" spacing="mb-4" required value={email} onChange={setEmail} />
        <button type="submit" className="btn btn-primary w-100" disabled={busy || !email.trim()}>
          {busy ? 'Sending…' : 'Send Reset Link'}
        </button>
      </form>
      <BackToLogin />
    </AccountCard>
  );
}
