import { env } from '$env/dynamic/public';

const BASE = env.PUBLIC_API_URL ?? '';

export interface ApiKey {
  id: number;
  name: string;
  lookup: string;
  scopes: ('read' | 'write' | 'admin')[];
  rate_limit: number;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface Overview {
  requests_today: number;
  errors_today: number;
  active_keys: number;
}

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
  ) {
    super(message);
  }
}

type ErrorBody = { error?: { code?: string; message?: string } } | null;

/**
 * The API always answers errors as `{ error: { code, message } }`; anything else (the dev server's
 * proxy failing to reach :8080) means the API is not running.
 */
export function toApiError(status: number, body: ErrorBody): ApiError {
  if (!body?.error) return new ApiError(status, 'network', 'Network error: the API is not reachable');
  return new ApiError(status, body.error.code ?? 'internal', body.error.message ?? `Request failed (${status})`);
}

function csrfToken(): string {
  return document.cookie.match(/(?:^|; )csrf_token=([^;]+)/)?.[1] ?? '';
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${BASE}/api/dashboard${path}`, {
    ...init,
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken(), ...init.headers },
  });
  if (!response.ok) throw toApiError(response.status, await response.json().catch(() => null));
  return response.status === 204 ? (undefined as T) : response.json();
}

export const getOverview = () => api<Overview>('/overview');
export const listKeys = () => api<ApiKey[]>('/keys');
export const createKey = (name: string, scopes: ApiKey['scopes'], rateLimit: number) =>
  api<ApiKey & { key: string }>('/keys', { method: 'POST', body: JSON.stringify({ name, scopes, rate_limit: rateLimit }) });
export const revokeKey = (id: number) => api<void>(`/keys/${id}`, { method: 'DELETE' });
