import './account-security.scss';
import { useCallback, useEffect, useState } from 'react';
import type { AccountSecurity as Security } from '../../../common/schemas/account-security.ts';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { PasskeysSection } from './passkeys-section.tsx';
import { fetchSecurity } from './security-api.ts';
import { SessionsSection } from './sessions-section.tsx';
import { TwoStepSection } from './two-step-section.tsx';

/** The Profile tab's security sections: passkeys, two-step sign-in, sessions. */
export function AccountSecurity() {
  const [security, setSecurity] = useState<Security | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const load = useCallback(async () => {
    try {
      setSecurity(await fetchSecurity());
    } catch (error) {
      setWarning(errorMessage(error, 'Your security settings could not be loaded. Please reload the page.'));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const changed = () => {
    void load();
    setVersion((v) => v + 1);
  };

  return (
    <div className="account-security">
      <FormAlert variant="warning" messages={[warning]} />
      {security?.setup_required && (
        <div className="alert alert-info" role="alert">
          As a shop owner, add a passkey or turn on two-step sign-in before using the owner console.
        </div>
      )}
      {security && (
        <>
          <PasskeysSection passkeys={security.passkeys} changed={changed} />
          <TwoStepSection
            on={security.two_step}
            recoveryCodesLeft={security.recovery_codes_left}
            hasPassword={security.has_password}
            hasPasskey={security.passkeys.length > 0}
            changed={changed}
          />
        </>
      )}
      <SessionsSection refreshKey={version} />
    </div>
  );
}
