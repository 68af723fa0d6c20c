import type {
  AccountPasskey,
  AccountSecurity,
  AccountSession,
  SecondStepResponse,
  SignedInResponse,
  TotpSetup,
} from '../../../common/schemas/account-security.ts';
import type { MessageResponse } from '../../../common/schemas/accounts.ts';
import { apiGet, apiPost } from '../../lib/api.ts';

// Account security calls (README, "Account security"): JSON under the base path, CSRF on every POST.

export const fetchSecurity = () => apiGet<AccountSecurity>('/api/account/sign-in-security');
export const fetchSessions = () => apiGet<{ sessions: AccountSession[] }>('/api/account/sessions');
export const signOutSession = (id: string) =>
  apiPost<MessageResponse>(`/api/account/sessions/${encodeURIComponent(id)}/sign-out`);
export const signOutOthers = () => apiPost<MessageResponse>('/api/account/sessions/sign-out-others');

export const sendSignInCode = (code: string) => apiPost<SignedInResponse>('/api/login/code', { code });

export const startTwoStepSetup = () => apiPost<TotpSetup>('/api/account/two-step/setup');
export const confirmTwoStep = (code: string) =>
  apiPost<MessageResponse & { recovery_codes: string[] }>('/api/account/two-step/confirm', { code });
export const turnOffTwoStep = (proof: { password: string } | { passkey: unknown }) =>
  apiPost<MessageResponse>('/api/account/two-step/disable', proof);

/** The browser half of WebAuthn, loaded only when a passkey is used (its own chunk). */
const webauthn = () => import('@simplewebauthn/browser');

export async function addPasskey(name: string): Promise<AccountPasskey> {
  const { startRegistration } = await webauthn();
  const optionsJSON = await apiPost<Parameters<typeof startRegistration>[0]['optionsJSON']>(
    '/api/account/passkeys/options',
  );
  const response = await startRegistration({ optionsJSON });
  return (await apiPost<{ passkey: AccountPasskey }>('/api/account/passkeys', { name, response })).passkey;
}

export const removePasskey = (id: number) => apiPost<MessageResponse>(`/api/account/passkeys/${id}/remove`);

/** A signed passkey answer to a fresh sign-in challenge (autofill: the browser's passkey list in the Email field). */
export async function passkeyAssertion(autofill = false): Promise<unknown> {
  const { startAuthentication } = await webauthn();
  const optionsJSON = await apiPost<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
    '/api/passkeys/sign-in/options',
  );
  return startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
}

export async function signInWithPasskey(autofill = false): Promise<SignedInResponse> {
  const response = await passkeyAssertion(autofill);
  return apiPost<SignedInResponse>('/api/passkeys/sign-in', { response });
}

/** Whether this page can use passkeys at all (a secure context with a domain name: never an IP address). */
export async function passkeysAvailable(autofill = false): Promise<boolean> {
  if (/^[\d.]+$|^\[/.test(window.location.hostname)) return false;
  const { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } = await webauthn();
  return autofill ? browserSupportsWebAuthnAutofill() : browserSupportsWebAuthn();
}

export type { SecondStepResponse };
