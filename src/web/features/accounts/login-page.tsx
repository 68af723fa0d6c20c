import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { SignedInResponse } from '../../../common/schemas/account-security.ts';
import { LoginSchema } from '../../../common/schemas/accounts.ts';
import { setCurrentUser } from '../../app/session.ts';
import { Check, Field } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { checkForm } from '../../lib/form-check.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { takeReturnPath } from '../../lib/return-path.ts';
import { EmailField, FormAlert, GoogleButton, useLater } from './account-ui.tsx';
import { errorMessage, login } from './accounts-api.ts';
import { PasskeySignIn } from './passkey-sign-in.tsx';
import { SecondStepForm } from './second-step-form.tsx';

const REDIRECT_MS = 500;
const TOAST_MS = 5000;
const REQUIRED = 'Email and Password fields are required.';

/** Why Google sign-in sent the visitor back here (`/login?google=<reason>`). */
const GOOGLE_FAILURES: Record<string, string> = {
  expired: 'Google sign-in took too long. Please try again.',
  failed: 'Google sign-in did not complete. Please try again.',
  unverified:
    'Google has not verified the email address of this Google account, so it cannot be used to sign in here. Please sign in or sign up with your email address and a password.',
};

/**
 * Sign in. The fields are checked with the server's own schema (a missing one with the spec's
 * message; either way no request); the server's message
 * for any refusal (422, 401, 403, 429) shows in a warning. On success the user is stored and,
 * after 500 ms, the visitor goes to the stored return path (then cleared) or the user panel.
 */
export function LoginPage() {
  useScreenTitleAndPageView('/login');
  const navigate = useNavigate();
  const toast = useToast();
  const later = useLater();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [params] = useSearchParams();
  const [warning, setWarning] = useState<string | null>(() => {
    const reason = params.get('google');
    return reason ? (GOOGLE_FAILURES[reason] ?? GOOGLE_FAILURES.failed!) : null;
  });
  const [busy, setBusy] = useState(false);
  // A password (or Google) sign-in of an account with two-step sign-in asks for a code next.
  const [secondStep, setSecondStep] = useState(params.get('step') === 'code');

  const signedIn = (response: SignedInResponse) => {
    const user = { ...response.user, name: response.user.name ?? '' };
    toast({
      title: 'Login Successfull',
      body: user.name ? `Welcome back, ${user.name}!` : 'Welcome back!',
      delay: TOAST_MS,
    });
    setCurrentUser(user);
    // An owner who must add a passkey or two-step sign-in first goes to the Profile tab.
    later(
      () => navigate(response.setup_required ? '/user-panel?tab=profile' : takeReturnPath('/user-panel')),
      REDIRECT_MS,
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const check = checkForm(LoginSchema, { email, password, remember });
    if (!check.ok) {
      setWarning(check.issues.some((i) => i.missing) ? REQUIRED : check.issues[0]!.message);
      return;
    }
    setWarning(null);
    setBusy(true);
    try {
      const response = await login(check.data);
      if ('second_step' in response) {
        setSecondStep(true);
        setBusy(false);
        return;
      }
      signedIn(response);
    } catch (error) {
      setWarning(errorMessage(error, 'Something went wrong. Please try again.'));
      setBusy(false);
    }
  };

  if (secondStep) return <SecondStepForm onSignedIn={signedIn} onRestart={() => setSecondStep(false)} />;

  return (
    <>
      <h1>Sign in</h1>
      <p className="auth-lead">Welcome back. Sign in to reach your kits and downloads.</p>
      <FormAlert variant="warning" messages={[warning]} testId="login-warning" />
      <form noValidate onSubmit={submit}>
        <EmailField id="login-email" autoComplete="username webauthn" value={email} onChange={setEmail} />
        <Field
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          aside={
            <Link to="/forgot-password" className="small">
              Forgot your password?
            </Link>
          }
        />
        <Check
          id="login-remember"
          label="Remember Me"
          wrapper="mb-4"
          type="checkbox"
          checked={remember}
          onChange={(e) => setRemember(e.target.checked)}
        />
        <button type="submit" className="btn btn-primary w-100" disabled={busy}>
          Sign In
        </button>
      </form>
      <PasskeySignIn onSignedIn={signedIn} onWarning={setWarning} />
      <GoogleButton label="Sign in with Google" />
      <p className="auth-links">
        New to Kitshop? <Link to="/register">Sign up</Link>
      </p>
    </>
  );
}
