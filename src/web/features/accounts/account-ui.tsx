import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../components/field.tsx';
import { useHydrated } from '../../lib/hydration.ts';
import { clientConfig } from '../../lib/initial-data.ts';
import { getReturnPath } from '../../lib/return-path.ts';
import { errorMessage, googleSignInUrl } from './accounts-api.ts';

/** Runs a callback after a delay; the timer is dropped when the screen goes away first. */
export function useLater(): (callback: () => void, delayMs: number) => void {
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(
    () => () => {
      for (const timer of timers.current) clearTimeout(timer);
      timers.current = [];
    },
    [],
  );
  return useCallback((callback, delayMs) => {
    timers.current.push(setTimeout(callback, delayMs));
  }, []);
}

/** A Bootstrap alert read out when it appears; renders nothing without messages. */
export function FormAlert({
  variant,
  messages,
  testId,
}: {
  variant: 'warning' | 'success' | 'danger';
  messages: (string | null | undefined)[];
  testId?: string;
}) {
  const shown = [...new Set(messages.filter((m): m is string => Boolean(m)))];
  if (shown.length === 0) return null;
  return (
    <div className={`alert alert-${variant}`} role="alert" data-testid={testId}>
      {shown.length === 1 ? shown[0] : shown.map((message) => <div key={message}>{message}</div>)}
    </div>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" className="icon icon-mark">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

/**
 * 'Sign in with Google' / 'Sign up with Google': a plain navigation to the server's redirect, which
 * carries the stored return path. Shown only when the server has Google sign-in configured.
 */
export function GoogleButton({ label }: { label: 'Sign in with Google' | 'Sign up with Google' }) {
  // The return path is in the browser's storage: the server's page links without it.
  const hydrated = useHydrated();
  if (!clientConfig.googleEnabled) return null;
  return (
    <>
      <div className="auth-divider" aria-hidden="true">
        <span>or</span>
      </div>
      {/* Clicked before the app has started, boot.js adds the stored return path (data-return-path). */}
      <a
        className="btn btn-outline-secondary w-100 google-button"
        href={googleSignInUrl(hydrated ? getReturnPath() : null)}
        data-return-path=""
      >
        <GoogleMark />
        {label}
      </a>
    </>
  );
}

/** The frame of the account screens inside the shop's layout: a centred card with a heading. */
export function AccountCard({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  return (
    <section className="section account-page">
      <div className="container">
        <div className="row justify-content-center">
          <div className="col-12 col-md-8 col-lg-6 col-xl-5">
            <div className="card account-card">
              <div className="card-body p-4 p-sm-5">
                <h1 className="h3 fw-bold mb-2">{title}</h1>
                {lead && <p className="text-body-secondary mb-4">{lead}</p>}
                {children}
              </div>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

/** The e-mail field of the sign-in, sign-up and reset-link forms. */
export function EmailField(props: Omit<Parameters<typeof Field>[0], 'label' | 'type'>) {
  return <Field label="Email" type="email" autoComplete="email" placeholder="you@company.com" {...props} />;
}

/** The way back under the password forms. */
export function BackToLogin() {
  return (
    <p className="mt-4 mb-0 text-center">
      <Link to="/login">Back to login</Link>
    </p>
  );
}

/**
 * One request at a time from a form: `busy` while it runs, then the success text, or the server's
 * message (the fallback when it gives none) as the error. `done` runs after a success.
 */
export function useSend() {
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = async (request: () => Promise<unknown>, succeeded: string, failed: string, done: () => void) => {
    setBusy(true);
    setSuccess(null);
    setError(null);
    try {
      await request();
      setSuccess(succeeded);
      done();
    } catch (failure) {
      setError(errorMessage(failure, failed));
    } finally {
      setBusy(false);
    }
  };
  return { busy, success, setSuccess, error, setError, send };
}
