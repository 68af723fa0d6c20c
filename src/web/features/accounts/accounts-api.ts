import type { SecondStepResponse } from '../../../common/schemas/account-security.ts';
import type {
  ChangePasswordRequest,
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  MessageResponse,
  RegisterRequest,
  ResetPasswordRequest,
  VerifyEmailResponse,
} from '../../../common/schemas/accounts.ts';
import { ApiError, apiGetWithCsrf, apiPost } from '../../lib/api.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { messageForPeople } from '../../lib/server-message.ts';

// Bodies and answers are the shared schemas' input and output types (src/common/schemas).

/** Signed in, or (two-step sign-in on) a code is asked next. */
export const login = (payload: LoginRequest) =>
  apiPost<(LoginResponse & { setup_required?: boolean }) | SecondStepResponse>('/api/login', payload);

export const register = (payload: RegisterRequest) => apiPost<MessageResponse>('/api/register', payload);

export const forgotPassword = (payload: ForgotPasswordRequest) =>
  apiPost<MessageResponse>('/api/forgot-password', payload);

export const resetPassword = (payload: ResetPasswordRequest) =>
  apiPost<MessageResponse>('/api/reset-password', payload);

export const changePassword = (payload: ChangePasswordRequest) =>
  apiPost<MessageResponse>('/api/changePassword', payload);

/** Posts the verification link's own query (`?token=..&email=..`) to `{base}/email/verify`. */
export const verifyEmail = (search: string) => apiPost<VerifyEmailResponse>(`/email/verify${search}`);

/** Signs out: a GET that changes state, so it carries the CSRF header. */
export const signOut = () => apiGetWithCsrf<{ ok: boolean }>('/api/exit');

/** Google sign-in is a plain browser navigation that carries the stored return path (or nothing). */
export const googleSignInUrl = (returnPath: string | null) =>
  appUrl(`/google/redirect?returnPath=${encodeURIComponent(returnPath ?? '')}`);

/**
 * The server's own message for a failed call, as a sentence for people (without the field name the
 * API puts first), or the screen's fallback when there is none (a network failure, or a response
 * without a JSON message, which ApiError reports as 'Request failed').
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message && error.message !== 'Request failed')
    return messageForPeople(error.message);
  return fallback;
}
