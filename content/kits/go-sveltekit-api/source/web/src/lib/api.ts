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

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
  ) {
    super(message);
  }
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
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(response.status, body?.error?.code ?? 'network', body?.error?.message ?? response.statusText);
  }
  return response.status === 204 ? (undefined as T) : response.json();
}

export const listKeys = () => api<ApiKey[]>('/keys');
export const createKey = (name: string, scopes: ApiKey['scopes'], rateLimit: number) =>
  api<ApiKey & { key: string }>('/keys', { method: 'POST', body: JSON.stringify({ name, scopes, rate_limit: rateLimit }) });
export const revokeKey = (id: number) => api<void>(`/keys/${id}`, { method: 'DELETE' });
