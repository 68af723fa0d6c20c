/** The page shell's JSON blocks: `#initial-data` ({path, csrf, baseUrl, user}) and `#client-config`. */
export type InitialUser = { id?: number; name?: string };
export type InitialData = { path: string; csrf: string; baseUrl: string; user: InitialUser };
export type ClientConfig = { basePath: string; supportEmail: string; gaMeasurementId: string | null };

function readJson<T>(id: string, fallback: T): T {
  const text = document.getElementById(id)?.textContent;
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export const initialData: InitialData = readJson('initial-data', { path: '/', csrf: '', baseUrl: '', user: {} });
export const clientConfig: ClientConfig = readJson('client-config', {
  basePath: '',
  supportEmail: 'support@kitshop.dev',
  gaMeasurementId: null,
});

/** A URL under the base path for the browser's own origin (never baseUrl's host). */
export const appUrl = (path: string) => `${clientConfig.basePath}/${path.replace(/^\/+/, '')}`;
