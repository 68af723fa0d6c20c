import { useCallback, useEffect, useState } from 'react';
import type { AccountSession } from '../../../common/schemas/account-security.ts';
import { setCurrentUser } from '../../app/session.ts';
import { Loading } from '../../components/load-states.tsx';
import { useToast } from '../../components/toasts.tsx';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { fetchSessions, signOutOthers, signOutSession } from './security-api.ts';

export const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

const METHODS: Record<string, string> = {
  password: 'password',
  code: 'password and code',
  passkey: 'passkey',
  google: 'Google',
  link: 'activation link',
};

/**
 * The Profile tab's signed-in sessions: device (from the browser's user agent), address, how and
 * when it signed in, last seen, `This device`; `Sign Out` for each, `Sign Out Everywhere Else`.
 */
export function SessionsSection({ refreshKey = 0 }: { refreshKey?: number }) {
  const toast = useToast();
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setSessions((await fetchSessions()).sessions);
    } catch (error) {
      setWarning(errorMessage(error, 'The sessions could not be loaded. Please reload the page.'));
    }
  }, []);
  useEffect(() => {
    void refreshKey;
    void load();
  }, [load, refreshKey]);

  const act = async (work: () => Promise<{ message: string }>, current = false) => {
    setBusy(true);
    setWarning(null);
    try {
      const { message } = await work();
      toast({ title: 'Signed out', body: message });
      if (current) {
        setCurrentUser(null);
        return;
      }
      await load();
    } catch (error) {
      setWarning(errorMessage(error, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  const others = sessions?.filter((s) => !s.current).length ?? 0;
  return (
    <section className="profile-section" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="h5 fw-bold mb-1">
        Signed-in sessions
      </h2>
      <p className="text-body-secondary mb-3">
        Where your account is signed in now. Sign out any you do not recognise.
      </p>
      <FormAlert variant="warning" messages={[warning]} />
      {sessions === null ? (
        warning ? null : (
          <Loading className="py-2">Loading sessions…</Loading>
        )
      ) : (
        <>
          <ul className="list-unstyled session-list" aria-label="Sessions">
            {sessions.map((session) => (
              <li key={session.id} className="session-item">
                <div>
                  <div className="fw-semibold">
                    {session.device}
                    {session.current && <span className="badge text-bg-success ms-2">This device</span>}
                  </div>
                  <div className="small text-body-secondary">
                    {session.ip ?? 'Unknown address'}
                    {session.method ? ` · signed in with ${METHODS[session.method] ?? session.method}` : ''}
                  </div>
                  <div className="small text-body-secondary">
                    Signed in {when(session.created_at)} · last seen {when(session.last_seen_at)}
                  </div>
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  disabled={busy}
                  aria-label={session.current ? 'Sign Out of this device' : `Sign Out ${session.device}`}
                  onClick={() => void act(() => signOutSession(session.id), session.current)}
                >
                  Sign Out
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="btn btn-outline-primary"
            disabled={busy || others === 0}
            onClick={() => void act(signOutOthers)}
          >
            Sign Out Everywhere Else
          </button>
        </>
      )}
    </section>
  );
}
