import { RETENTION_DAYS } from '../../common/constants.ts';
import {
  type ClientConfig,
  COOKIE_NAMES,
  type CookieNames,
  type InitialData,
  type PaymentConfig,
} from '../../common/page-data.ts';

/** The page shell's JSON blocks: `#initial-data` ({path, csrf, baseUrl, user}) and `#client-config`. */
function readJson<T>(id: string, fallback: T): T {
  // On the server (rendering a page) the defaults stand; the renderer sets the shop's settings.
  if (typeof document === 'undefined') return fallback;
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
  messageRetentionDays: RETENTION_DAYS.contactMessages,
  googleEnabled: false,
  payment: { provider: 'sandbox', clientToken: null, environment: 'sandbox' },
  testPayments: false,
  cookies: COOKIE_NAMES,
};
/** The server's payment settings, each field checked; anything odd falls back to the sandbox default. */
function readPayment(value: Partial<PaymentConfig> | undefined): PaymentConfig {
  return {
    provider: value?.provider === 'paddle' ? 'paddle' : 'sandbox',
    clientToken: typeof value?.clientToken === 'string' && value.clientToken ? value.clientToken : null,
    environment: value?.environment === 'production' ? 'production' : 'sandbox',
  };
}
/** Each name as the server sent it, or the plain-http default. */
function readCookies(value: Partial<CookieNames> | undefined): CookieNames {
  const name = (key: keyof CookieNames) =>
    typeof value?.[key] === 'string' && value[key] ? value[key] : configDefaults.cookies[key];
  return { session: name('session'), csrf: name('csrf'), oidc: name('oidc'), signIn: name('signIn') };
}
const readConfig = readJson<Partial<ClientConfig>>('client-config', configDefaults);
export const clientConfig: ClientConfig = {
  ...configDefaults,
  ...readConfig,
  googleEnabled: readConfig.googleEnabled === true,
  payment: readPayment(readConfig.payment),
  testPayments: readConfig.testPayments === true,
  messageRetentionDays:
    typeof readConfig.messageRetentionDays === 'number' && readConfig.messageRetentionDays > 0
      ? readConfig.messageRetentionDays
      : RETENTION_DAYS.contactMessages,
  cookies: readCookies(readConfig.cookies),
};

/** A URL under the base path for the browser's own origin (never baseUrl's host). */
export const appUrl = (path: string) => `${clientConfig.basePath}/${path.replace(/^\/+/, '')}`;
