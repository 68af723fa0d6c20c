import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AccountSecurity } from '../../../common/schemas/privacy.ts';
import { DELETE_CONFIRMATION } from '../../../common/schemas/privacy.ts';
import { setCurrentUser } from '../../app/session.ts';
import { Field } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ApiError } from '../../lib/api.ts';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { deleteAccount, fetchAccountSecurity, googleReauthUrl } from './privacy-api.ts';

/**
 * `Delete Account`: the password (or, for an account that only signs in with Google, a fresh
 * Google sign-in) and the typed word DELETE. Then the account is gone and the visitor signed out.
 */
export function DeleteAccountSection({ security }: { security: AccountSecurity | null }) {
  const toast = useToast();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [warning, setWarning] = useState<string | null>(null);
  const [reauth, setReauth] = useState(false);
  const [busy, setBusy] = useState(false);
  const googleOnly = security !== null && !security.hasPassword;
  const deleted = useRef(false);
  useEffect(
    () => () => {
      if (deleted.current) setCurrentUser(null);
    },
    [],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setReauth(false);
    if (!googleOnly && !password) {
      setWarning('Enter your password to delete your account.');
      return;
    }
    if (confirmation.trim() !== DELETE_CONFIRMATION) {
      setWarning(`Type ${DELETE_CONFIRMATION} to confirm.`);
      return;
    }
    setWarning(null);
    setBusy(true);
    try {
      const response = await deleteAccount({ password: googleOnly ? undefined : password, confirmation });
      toast({ title: 'Account Deleted', body: response.message, delay: 5000 });
      // Home first, signed out once the panel has left the screen (below): the panel, still shown
      // while the home screen loads, would send a signed-out visitor to the sign-in page.
      deleted.current = true;
      navigate('/', { replace: true });
    } catch (error) {
      setReauth(googleOnly && error instanceof ApiError && error.status === 403);
      setWarning(errorMessage(error, 'Your account could not be deleted. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <section className="profile-section profile-danger" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title" className="h5 fw-bold mb-1">
        Delete account
      </h2>
      <p className="text-body-secondary">
        Deleting your account signs you out everywhere and removes your profile, sign-in methods, kits and downloads,
        contact messages and newsletter subscription. Your orders stay in our accounts, as tax law requires, without
        your name or e-mail address. This cannot be undone; you can sign up again with the same address later.
      </p>
      <FormAlert variant="warning" messages={[warning]} testId="delete-account-warning" />
      {reauth && (
        <p>
          <a className="btn btn-outline-primary" href={googleReauthUrl()}>
            Sign in with Google again
          </a>
        </p>
      )}
      <form noValidate onSubmit={submit}>
        {googleOnly ? (
          <p className="form-text">
            Your account has no password, so a recent Google sign-in confirms that it is you: if you signed in more than
            10 minutes ago, please <a href={googleReauthUrl()}>sign in with Google again</a> first.
          </p>
        ) : (
          <Field
            id="delete-password"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
        )}
        <Field
          id="delete-confirmation"
          label={`Type ${DELETE_CONFIRMATION} to confirm`}
          spacing="mb-4"
          autoComplete="off"
          value={confirmation}
          onChange={setConfirmation}
        />
        <button type="submit" className="btn btn-danger" disabled={busy}>
          Delete Account
        </button>
      </form>
    </section>
  );
}

/** How the account proves it is its owner, read once for the sections that ask. */
export function useAccountSecurity(): AccountSecurity | null {
  const [security, setSecurity] = useState<AccountSecurity | null>(null);
  useEffect(() => {
    let live = true;
    fetchAccountSecurity()
      .then((value) => live && setSecurity(value))
      .catch((error: unknown) => console.warn('Account details failed to load', error));
    return () => {
      live = false;
    };
  }, []);
  return security;
}
