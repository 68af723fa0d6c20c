/** The page shell's JSON blocks: `#initial-data` ({path, csrf, baseUrl, user}) and `#client-config`. */
export type InitialUser = { id?: number; name?: string };
export type InitialData = { path: string; csrf: string; baseUrl: string; user: InitialUser };
export type ClientConfig = {
  basePath: string;
  supportEmail: string;
  gaMeasurementId: string | null;
  /** Google sign-in is configured: the sign-in and sign-up screens show its buttons. */
  googleEnabled: boolean;
  /** How the checkout page opens its payment frame (Paddle.js, or the local sandbox card form). */
  payment: PaymentConfig;
};
export type PaymentConfig = {
  provider: 'sandbox' | 'paddle';
  clientToken: string | null;
  environment: 'sandbox' | 'production';
};

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
const configDefaults: ClientConfig = {
  basePath: '',
  supportEmail: 'support@kitshop.dev',
  gaMeasurementId: null,
  googleEnabled: false,
  payment: { provider: 'sandbox', clientToken: null, environment: 'sandbox' },
};
/** The server's payment settings, each field checked; anything odd falls back to the sandbox default. */
function readPayment(value: Partial<PaymentConfig> | undefined): PaymentConfig {
  return {
    provider: value?.provider === 'paddle' ? 'paddle' : 'sandbox',
    clientToken: typeof value?.clientToken === 'string' && value.clientToken ? value.clientToken : null,
    environment: value?.environment === 'production' ? 'production' : 'sandbox',
  };
}
const readConfig = readJson<Partial<ClientConfig>>('client-config', configDefaults);
export const clientConfig: ClientConfig = {
  ...configDefaults,
  ...readConfig,
  googleEnabled: readConfig.googleEnabled === true,
  payment: readPayment(readConfig.payment),
};

/** A URL under the base path for the browser's own origin (never baseUrl's host). */
export const appUrl = (path: string) => `${clientConfig.basePath}/${path.replace(/^\/+/, '')}`;
