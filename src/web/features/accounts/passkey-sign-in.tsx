import { useEffect, useRef, useState } from 'react';
import type { SignedInResponse } from '../../../common/schemas/account-security.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { errorMessage } from './accounts-api.ts';
import { passkeysAvailable, signInWithPasskey } from './security-api.ts';

/**
 * `Sign in with a passkey` (discoverable credentials: no e-mail asked), and the browser's passkey
 * suggestions in the Email field (conditional mediation), where the browser offers them. Both
 * load the WebAuthn code on their own (a lazy chunk); on an address passkeys cannot use (an IP)
 * nothing shows.
 */
export function PasskeySignIn({
  onSignedIn,
  onWarning,
}: {
  onSignedIn: (response: SignedInResponse) => void;
  onWarning: (message: string | null) => void;
}) {
  const [available, setAvailable] = useState(false);
  const [busy, setBusy] = useState(false);
  const done = useRef(onSignedIn);
  done.current = onSignedIn;

  useEffect(() => {
    let live = true;
    passkeysAvailable().then(
      (yes) => live && setAvailable(yes),
      () => {},
    );
    // Autofill: a quiet request that the browser answers only if the person picks a passkey.
    passkeysAvailable(true)
      .then(async (yes) => {
        if (!yes || !live) return;
        const answer = await signInWithPasskey(true);
        if (live) done.current(answer);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  if (!available) return null;
  const start = async () => {
    setBusy(true);
    onWarning(null);
    try {
      onSignedIn(await signInWithPasskey());
    } catch (error) {
      const cancelled = error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
      onWarning(
        cancelled
          ? 'Passkey sign-in was cancelled.'
          : errorMessage(error, 'Passkey sign-in did not work. Please try again.'),
      );
      setBusy(false);
    }
  };
  // A link like 'Sign in with Google' (to this very page without script), so the form's one
  // button named 'Sign In' stays the only one (SPEC's contract: tests find it by role and name).
  return (
    <a
      href={appUrl('login?with=passkey')}
      className={`btn btn-outline-secondary w-100 mt-3${busy ? ' disabled' : ''}`}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        event.preventDefault();
        if (!busy) void start();
      }}
    >
      Sign in with a passkey
    </a>
  );
}
