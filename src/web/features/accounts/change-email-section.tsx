import { type FormEvent, useState } from 'react';
import type { AccountIdentity } from '../../../common/schemas/privacy.ts';
import { Field } from '../../components/field.tsx';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { requestEmailChange } from './privacy-api.ts';

/**
 * `Change Email`: a confirmation link goes to the new address (60 minutes, once) and a notice to
 * the current one; the address changes only when this account, signed in, confirms the link.
 */
export function ChangeEmailSection({ security }: { security: AccountIdentity | null }) {
  const [email, setEmail] = useState('');
  const [warning, setWarning] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setSuccess(null);
    if (!email.trim()) {
      setWarning('Enter your new e-mail address.');
      return;
    }
    setWarning(null);
    setBusy(true);
    try {
      const response = await requestEmailChange({ email: email.trim() });
      setEmail('');
      setSuccess(response.message);
    } catch (error) {
      setWarning(errorMessage(error, 'The confirmation link could not be sent. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="profile-section" aria-labelledby="change-email-title">
      <h2 id="change-email-title" className="h5 fw-bold mb-1">
        Change e-mail address
      </h2>
      <p className="text-body-secondary">
        {security ? (
          <>
            You sign in with <strong>{security.email}</strong>.{' '}
          </>
        ) : null}
        We send a confirmation link to the new address; the change happens when you open it while signed in to this
        account and confirm.
      </p>
      <FormAlert variant="warning" messages={[warning]} testId="change-email-warning" />
      <FormAlert variant="success" messages={[success]} testId="change-email-success" />
      <form noValidate onSubmit={submit}>
        <Field
          id="change-email"
          label="New Email"
          type="email"
          spacing="mb-4"
          autoComplete="email"
          value={email}
          onChange={setEmail}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Change Email
        </button>
      </form>
    </section>
  );
}
