import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/page-meta.ts';
import { setCurrentUser } from '../../app/session.ts';
import { useToast } from '../../app/toasts.tsx';
import { takeReturnPath } from '../../lib/return-path.ts';
import { FormAlert, GoogleButton, useLater } from './account-ui.tsx';
import { errorMessage, login } from './accounts-api.ts';

export const LOGIN_TITLE = 'Sign In — Kitshop';
const REDIRECT_MS = 500;
const TOAST_MS = 5000;

/** Why Google sign-in sent the visitor back here (`/login?google=<reason>`). */
const GOOGLE_FAILURES: Record<string, string> = {
  expired: 'Google sign-in took too long. Please try again.',
  failed: 'Google sign-in did not complete. Please try again.',
  unverified:
    'Google has not verified the email address of this Google account, so it cannot be used to sign in here. Please sign in or sign up with your email address and a password.',
};

/**
 * Sign in. Both fields are checked here (the spec's message, no request); the server's message
 * for any refusal (422, 401, 403, 429) shows in a warning. On success the user is stored and,
 * after 500 ms, the visitor goes to the stored return path (then cleared) or the user panel.
 */
export function LoginPage() {
  usePageTitle(LOGIN_TITLE);
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      setWarning('Email and Password fields are required.');
      return;
    }
    setWarning(null);
    setBusy(true);
    try {
      const response = await login({ email: email.trim(), password, remember });
      const user = { ...response.user, name: response.user.name ?? '' };
      toast({
        title: 'Login Successfull',
        body: user.name ? `Welcome back, ${user.name}!` : 'Welcome back!',
        delay: TOAST_MS,
      });
      setCurrentUser(user);
      later(() => navigate(takeReturnPath('/user-panel')), REDIRECT_MS);
    } catch (error) {
      setWarning(errorMessage(error, 'Something went wrong. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Sign in</h1>
      <p className="auth-lead">Welcome back. Sign in to reach your kits and downloads.</p>
      <FormAlert variant="warning" messages={[warning]} testId="login-warning" />
      <form noValidate onSubmit={submit}>
        <div className="mb-3">
          <label htmlFor="login-email" className="form-label">
            Email
          </label>
          <input
            id="login-email"
            type="email"
            className="form-control"
            autoComplete="email"
            placeholder="you@company.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="mb-3">
          <div className="d-flex justify-content-between align-items-baseline">
            <label htmlFor="login-password" className="form-label">
              Password
            </label>
            <Link to="/forgot-password" className="small">
              Forgot your password?
            </Link>
          </div>
          <input
            id="login-password"
            type="password"
            className="form-control"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="form-check mb-4">
          <input
            id="login-remember"
            type="checkbox"
            className="form-check-input"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
          />
          <label htmlFor="login-remember" className="form-check-label">
            Remember Me
          </label>
        </div>
        <button type="submit" className="btn btn-primary w-100" disabled={busy}>
          Sign In
        </button>
      </form>
      <GoogleButton label="Sign in with Google" />
      <p className="auth-links">
        New to Kitshop? <Link to="/register">Sign up</Link>
      </p>
    </>
  );
}
