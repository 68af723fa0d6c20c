import './exit-page.scss';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { setCurrentUser } from '../../app/session.ts';
import { useToast } from '../../components/toasts.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { useLater } from './account-ui.tsx';
import { signOut } from './accounts-api.ts';

const REDIRECT_MS = 1000;
const TOAST_MS = 5000;

/**
 * Signs out once on arrival (React's development double effect must not call it twice), clears
 * the user, says so in a toast and goes home after 1 s. 'click here' goes home at once.
 */
export function ExitPage() {
  useScreenTitleAndPageView('/exit');
  const navigate = useNavigate();
  const toast = useToast();
  const later = useLater();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    signOut()
      .then(() => {
        setCurrentUser(null);
        toast({ title: 'Logout Successfull', body: 'You are being redirected to home page', delay: TOAST_MS });
        later(() => navigate('/'), REDIRECT_MS);
      })
      .catch((error: unknown) => {
        console.warn('Sign-out failed', error);
        setFailed(true);
      });
  }, [navigate, toast, later]);

  return (
    <section className="section exit-page text-center">
      <div className="container narrow">
        <h1 className="h3 fw-bold mb-4">You are leaving this page</h1>
        {failed ? (
          <div className="alert alert-warning d-inline-block" role="alert">
            We could not sign you out. Please try again.
          </div>
        ) : (
          <div className="spinner-border text-primary exit-spinner" role="status">
            <span className="visually-hidden">Signing out…</span>
          </div>
        )}
        <p className="mt-4 mb-0 text-body-secondary">
          If you are not redirected, <Link to="/">click here</Link>.
        </p>
      </div>
    </section>
  );
}
