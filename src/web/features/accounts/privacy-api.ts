import type { MessageResponse } from '../../../common/schemas/accounts.ts';
import type { AccountSecurity } from '../../../common/schemas/privacy.ts';
import { apiPost } from '../../lib/api.ts';
import { appUrl } from '../../lib/initial-data.ts';

// The Profile tab's privacy calls (README: "Privacy calls").

export const fetchAccountSecurity = () => apiPost<AccountSecurity>('/api/account/security');

export const fetchAccountData = () => apiPost<Record<string, unknown>>('/api/account/export');

export const deleteAccount = (payload: { password?: string; confirmation: string }) =>
  apiPost<MessageResponse>('/api/account/delete', payload);

export const requestEmailChange = (payload: { email: string }) =>
  apiPost<MessageResponse>('/api/account/email', payload);

export const confirmEmailChange = (payload: { token: string; email: string }) =>
  apiPost<MessageResponse>('/api/account/email/confirm', payload);

/** A fresh Google sign-in (Google asks again, `max_age=0`) that comes back to the Profile tab. */
export const googleReauthUrl = () =>
  appUrl(`/google/redirect?returnPath=${encodeURIComponent('user-panel?tab=profile')}&reauth=1`);
