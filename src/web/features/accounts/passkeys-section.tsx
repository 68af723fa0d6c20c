import { type FormEvent, useEffect, useState } from 'react';
import type { AccountPasskey } from '../../../common/schemas/account-security.ts';
import { Field } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { addPasskey, passkeysAvailable, removePasskey } from './security-api.ts';
import { when } from './sessions-section.tsx';

/** Passkeys: name one and `Add Passkey` (the browser's own dialog), the list, `Remove`. */
export function PasskeysSection({ passkeys, changed }: { passkeys: AccountPasskey[]; changed: () => void }) {
  const toast = useToast();
  const [name, setName] = useState('');
  const [warning, setWarning] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [available, setAvailable] = useState<boolean | null>(null);
  useEffect(() => {
    passkeysAvailable().then(setAvailable, () => setAvailable(false));
  }, []);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setWarning(null);
    try {
      await work();
      changed();
    } catch (error) {
      const cancelled = error instanceof Error && error.name === 'NotAllowedError';
      setWarning(
        cancelled
          ? 'The passkey was not added: the browser’s dialog was closed.'
          : errorMessage(error, 'Something went wrong. Please try again.'),
      );
    } finally {
      setBusy(false);
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setWarning('Give the passkey a name, such as the device it lives on.');
      return;
    }
    void run(async () => {
      const added = await addPasskey(name.trim());
      setName('');
      toast({ title: 'Passkey Added', body: `"${added.name}" can now sign you in.` });
    });
  };

  return (
    <section className="profile-section" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" className="h5 fw-bold mb-1">
        Passkeys
      </h2>
      <p className="text-body-secondary mb-3">
        Sign in with your fingerprint, face or device PIN instead of the password.
      </p>
      <FormAlert variant="warning" messages={[warning]} testId="passkeys-warning" />
      {passkeys.length > 0 && (
        <ul className="list-unstyled session-list" aria-label="Passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="session-item">
              <div>
                <div className="fw-semibold">{passkey.name}</div>
                <div className="small text-body-secondary">
                  Added {when(passkey.created_at)}
                  {passkey.last_used_at ? ` · last used ${when(passkey.last_used_at)}` : ' · not used yet'}
                </div>
              </div>
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                disabled={busy}
                aria-label={`Remove ${passkey.name}`}
                onClick={() =>
                  void run(async () => {
                    await removePasskey(passkey.id);
                    toast({ title: 'Passkey Removed', body: `"${passkey.name}" no longer signs you in.` });
                  })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {available === false ? (
        <p className="small text-body-secondary mb-0">This browser cannot use passkeys on this address.</p>
      ) : (
        <form noValidate onSubmit={add} className="profile-form">
          <Field
            id="passkey-name"
            label="Passkey name"
            placeholder="e.g. Work laptop"
            maxLength={60}
            value={name}
            onChange={setName}
          />
          <button type="submit" className="btn btn-primary" disabled={busy || available === null}>
            Add Passkey
          </button>
        </form>
      )}
    </section>
  );
}
