import { useState } from 'react';
import { readConsent } from '../../lib/consent.ts';
import { FormAlert } from './account-ui.tsx';
import { errorMessage } from './accounts-api.ts';
import { fetchAccountData } from './privacy-api.ts';

/** Saves a value as a file the browser downloads. */
function saveJson(data: unknown, fileName: string) {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * `Download My Data`: one JSON file of everything the shop holds about the account (the right of
 * access and portability). The analytics choice lives only in this browser, so it is added here.
 */
export function DownloadDataSection() {
  const [busy, setBusy] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);

  const download = async () => {
    setBusy(true);
    setWarning(null);
    try {
      const data = await fetchAccountData();
      const consents = (data.consents ?? {}) as Record<string, unknown>;
      data.consents = { ...consents, analytics_in_this_browser: readConsent() ?? 'not chosen' };
      saveJson(data, `kitshop-data-${new Date().toISOString().slice(0, 10)}.json`);
    } catch (error) {
      setWarning(errorMessage(error, 'Your data could not be downloaded. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="profile-section" aria-labelledby="download-data-title">
      <h2 id="download-data-title" className="h5 fw-bold mb-1">
        Your data
      </h2>
      <p className="text-body-secondary">
        A JSON file with everything Kitshop holds about your account: profile, sign-in methods, sessions, orders, kits,
        downloads, contact messages, newsletter and consents.
      </p>
      <FormAlert variant="warning" messages={[warning]} testId="download-data-warning" />
      <button type="button" className="btn btn-outline-primary" disabled={busy} onClick={download}>
        {busy ? 'Preparing…' : 'Download My Data'}
      </button>
    </section>
  );
}
