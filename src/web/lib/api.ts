import { appUrl, initialData } from './initial-data.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function send<T>(method: 'GET' | 'POST', path: string, body?: unknown, csrf = method === 'POST'): Promise<T> {
  const response = await fetch(appUrl(path), {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
      ...(csrf ? { 'X-CSRF-TOKEN': initialData.csrf } : {}),
    },
    // A call without a payload sends an empty body (SPEC's calls: "empty body"); the server reads it as {}.
    body: method === 'POST' && body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, (data as { message?: string } | null)?.message ?? 'Request failed');
  }
  return data as T;
}

/** POST under the base path with the CSRF header, JSON in and out; non-2xx throws ApiError. */
export const apiPost = <T>(path: string, body?: unknown) => send<T>('POST', path, body);
export const apiGet = <T>(path: string) => send<T>('GET', path);
/** GET with the CSRF header, for the GET routes that change state (`GET /api/exit` signs out). */
export const apiGetWithCsrf = <T>(path: string) => send<T>('GET', path, undefined, true);
