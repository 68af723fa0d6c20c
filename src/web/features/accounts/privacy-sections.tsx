import './privacy-sections.scss';
import { ChangeEmailSection } from './change-email-section.tsx';
import { DeleteAccountSection, useAccountSecurity } from './delete-account-section.tsx';
import { DownloadDataSection } from './download-data-section.tsx';

/** The Profile tab's sections below the password: e-mail address, the account's data, deletion. */
export function PrivacySections() {
  const security = useAccountSecurity();
  return (
    <div className="privacy-sections">
      <ChangeEmailSection security={security} />
      <DownloadDataSection />
      <DeleteAccountSection security={security} />
    </div>
  );
}
