import { type FormEvent, useState } from 'react';
import type { TotpSetup } from '../../../common/schemas/account-security.ts';
import { Field } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { confirmTwoStep, passkeyAssertion, startTwoStepSetup, turnOffTwoStep } from './security-api.ts';

type Props = {
  on: boolean;
  recoveryCodesLeft: number;
  hasPassword: boolean;
  hasPasskey: boolean;
  /** After a change: the security summary and the sessions list read again. */
  changed: () => void;
};

/**
 * Two-step sign-in: `Set Up Two-Step Sign-In` shows a QR code and the secret, a `Code` confirms it,
 * then the 10 `Recovery Codes` show once. `Turn Off Two-Step Sign-In` asks the password again (or
 * a passkey).
 */
export function TwoStepSection({ on, recoveryCodesLeft, hasPassword, hasPasskey, changed }: Props) {
  const toast = useToast();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [password, setPassword] = useState('');
  const [warning, setWarning] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setWarning(null);
    try {
      await work();
    } catch (error) {
      setWarning(errorMessage(error, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await confirmTwoStep(code);
      setSetup(null);
      setCode('');
      setCodes(answer.recovery_codes);
      toast({ title: 'Two-Step Sign-In On', body: 'Signing in now asks for a code after the password.' });
      changed();
    });
  };

  const turnOff = (proof: () => Promise<{ password: string } | { passkey: unknown }>) =>
    run(async () => {
      await turnOffTwoStep(await proof());
      setTurningOff(false);
      setPassword('');
      setCodes(null);
      toast({ title: 'Two-Step Sign-In Off', body: 'The password alone signs in again.' });
      changed();
    });

  return (
    <section className="profile-section" aria-labelledby="two-step-heading">
      <h2 id="two-step-heading" className="h5 fw-bold mb-1">
        Two-step sign-in
      </h2>
      <p className="text-body-secondary mb-3">
        {on
          ? `On: signing in with your password also asks for a code from your authenticator app. ${recoveryCodesLeft} recovery codes left.`
          : 'Off: add a code from an authenticator app (such as Google Authenticator, 1Password or Authy) to your password.'}
      </p>
      <FormAlert variant="warning" messages={[warning]} testId="two-step-warning" />

      {codes && (
        <div className="alert alert-success" role="status">
          <h3 className="h6 fw-bold">Recovery Codes</h3>
          <p className="mb-2">
            Keep these somewhere safe: each one signs you in once if you lose your authenticator. They are shown only
            now.
          </p>
          <ul className="recovery-codes" aria-label="Recovery Codes">
            {codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </div>
      )}

      {!on && !setup && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void run(async () => setSetup(await startTwoStepSetup()))}
        >
          Set Up Two-Step Sign-In
        </button>
      )}

      {!on && setup && (
        <div className="two-step-setup">
          <p>
            Scan this QR code with your authenticator app, or type the secret into it. Then enter the code it shows.
          </p>
          <div className="d-flex flex-wrap gap-4 align-items-start mb-3">
            <img src={setup.qr} alt="QR code for your authenticator app" width={200} height={200} />
            <div>
              <div className="small text-body-secondary">Secret</div>
              <code className="two-step-secret" data-testid="two-step-secret">
                {setup.secret}
              </code>
            </div>
          </div>
          <form noValidate onSubmit={confirm} className="profile-form">
            <Field
              id="two-step-code"
              label="Code"
              spacing="mb-3"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={setCode}
            />
            <div className="d-flex gap-2">
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Turn On
              </button>
              <button type="button" className="btn btn-outline-secondary" onClick={() => setSetup(null)}>
                Cancel
              </button>
            </div>
          </form>
        </div>
      )}

      {on && !turningOff && (
        <button type="button" className="btn btn-outline-danger" onClick={() => setTurningOff(true)}>
          Turn Off Two-Step Sign-In
        </button>
      )}

      {on && turningOff && (
        <form
          noValidate
          className="profile-form"
          onSubmit={(event) => {
            event.preventDefault();
            void turnOff(async () => ({ password }));
          }}
        >
          {hasPassword && (
            <Field
              id="two-step-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
              hint="To turn two-step sign-in off, confirm it is you."
            />
          )}
          <div className="d-flex flex-wrap gap-2">
            {hasPassword && (
              <button type="submit" className="btn btn-danger" disabled={busy}>
                Turn Off
              </button>
            )}
            {hasPasskey && (
              <button
                type="button"
                className="btn btn-outline-danger"
                disabled={busy}
                onClick={() => void turnOff(async () => ({ passkey: await passkeyAssertion() }))}
              >
                Confirm with a passkey
              </button>
            )}
            <button type="button" className="btn btn-outline-secondary" onClick={() => setTurningOff(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
