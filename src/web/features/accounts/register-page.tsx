import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PASSWORD_MIN } from '../../../common/constants.ts';
import { RegisterSchema } from '../../../common/schemas/accounts.ts';
import { Field } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { checkForm } from '../../lib/form-check.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { rememberPendingActivation } from '../../lib/pending-activation.ts';
import { getReturnPath, takeReturnPath } from '../../lib/return-path.ts';
import { EmailField, FormAlert, GoogleButton, useLater } from './account-ui.tsx';
import { errorMessage, register } from './accounts-api.ts';

const REDIRECT_MS = 1000;
const TOAST_MS = 5000;
const CHECK_EMAIL = 'Your account has been created. Please check your email to activate it.';

/**
 * Sign up. A missing field shows 'All fields are required.' and, as the spec says, the request is
 * still sent (the server's answer then shows beside it). On success: a toast, a green message
 * asking to activate the account from the e-mail, and after 1 s the return path (cleared) or home.
 * A sign-up with a return path (from the checkout) is remembered as pending activation, so that
 * screen can say what to do next and the mailed link brings the buyer back to it.
 */
export function RegisterPage() {
  useScreenTitleAndPageView('/register');
  const navigate = useNavigate();
  const toast = useToast();
  const later = useLater();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || success) return;
    // A missing field: the spec's message, and the request is still sent. Any other problem the
    // schema finds (a short password, a malformed address) is shown without a request.
    const check = checkForm(RegisterSchema, { name, email, password });
    const missing = !check.ok && check.issues.some((i) => i.missing);
    if (!check.ok && !missing) {
      setMissing(null);
      setWarning(check.issues[0]!.message);
      return;
    }
    setMissing(missing ? 'All fields are required.' : null);
    setWarning(null);
    setBusy(true);
    try {
      const payload = check.ok ? check.data : { name: name.trim(), email: email.trim(), password };
      const response = await register(payload);
      const message = response.message || CHECK_EMAIL;
      const comingBack = getReturnPath();
      if (comingBack) rememberPendingActivation({ email: payload.email, returnPath: comingBack });
      setMissing(null);
      setSuccess(message);
      toast({ title: 'Registration Successfull', body: message, delay: TOAST_MS });
      later(() => navigate(takeReturnPath('/')), REDIRECT_MS);
    } catch (error) {
      setWarning(errorMessage(error, 'Something went wrong. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Create your account</h1>
      <p className="auth-lead">Buy kits, download updates and read the setup guides.</p>
      <FormAlert variant="warning" messages={[missing, warning]} testId="register-warning" />
      <FormAlert variant="success" messages={[success]} testId="register-success" />
      <form noValidate onSubmit={submit}>
        <Field id="register-name" label="Full Name" type="text" autoComplete="name" value={name} onChange={setName} />
        <EmailField id="register-email" value={email} onChange={setEmail} />
        <Field
          id="register-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          placeholder={`min ${PASSWORD_MIN} characters`}
          value={password}
          onChange={setPassword}
          hint={`Use at least ${PASSWORD_MIN} characters.`}
        />
        <p className="small text-body-secondary mb-4">
          By signing up you agree to our <Link to="/terms-and-conditions">Terms and Conditions</Link> and{' '}
          <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
        <button type="submit" className="btn btn-primary w-100" disabled={busy || Boolean(success)}>
          Sign Up
        </button>
      </form>
      <GoogleButton label="Sign up with Google" />
      <p className="auth-links">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </>
  );
}
