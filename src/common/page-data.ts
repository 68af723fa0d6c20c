/**
 * What the page shell embeds for the browser: `<script type="application/json" id="initial-data">`
 * (per request) and `id="client-config"` (per server). The server writes them
 * (`server/http/page-shell.ts`), the web app reads them (`web/lib/initial-data.ts`).
 */

/** The signed-in user, or `{}` for a visitor. */
/** `owner` is true for a shop owner, absent otherwise. */
export type InitialUser = { id?: number; name?: string; owner?: boolean };

export type InitialData = { path: string; csrf: string; baseUrl: string; user: InitialUser };

/** The cookies' names over plain http; on https the server prefixes them (`__Host-`). */
export const COOKIE_NAMES = {
  session: 'kitshop_session',
  csrf: 'kitshop_csrf',
  oidc: 'kitshop_oidc',
  /** A password (or Google) sign-in waiting for its two-step code: 10 minutes, no session yet. */
  signIn: 'kitshop_signin',
} as const;

export type CookieNames = Record<keyof typeof COOKIE_NAMES, string>;

export type PaymentConfig = {
  provider: 'sandbox' | 'paddle';
  clientToken: string | null;
  environment: 'sandbox' | 'production';
};

export type ClientConfig = {
  basePath: string;
  supportEmail: string;
  gaMeasurementId: string | null;
  /** Google sign-in is configured: the sign-in and sign-up screens show its buttons. */
  googleEnabled: boolean;
  /** How the checkout page opens its payment frame (Paddle.js, or the local sandbox card form). */
  payment: PaymentConfig;
  /** A production shop on the sandbox provider: every page says that payments are not real. */
  testPayments: boolean;
  /** How many days contact messages are kept (MESSAGE_RETENTION_DAYS), for the privacy policy. */
  messageRetentionDays: number;
  /** The cookies' names on this shop (`__Host-` on https), for the cookie policy. */
  cookies: CookieNames;
};

/**
 * `<script type="application/json" id="page-queries">`: the answers a server-rendered
 * page was rendered with, as `[key, data]` pairs, which the browser puts in its query cache before
 * it hydrates. The keys are the ones the web app's hooks ask with (`PAGE_QUERY_KEYS`), so the server
 * and the browser cannot disagree about them.
 */
export const PAGE_QUERIES_ID = 'page-queries';
export type PageQuery = [key: readonly unknown[], data: unknown];

export const PAGE_QUERY_KEYS = {
  /** `POST /api/products`: the home page's kits. */
  products: () => ['products'] as const,
  /** `GET /api/shop-stats`: the home page's figures (buyers). */
  shopStats: () => ['shop-stats'] as const,
  /** `POST /api/product/{sef_id}`: a kit (null: no such kit). */
  product: (sefId: string) => ['product', sefId] as const,
  /** `GET /api/docs/{sef_id}`: a kit's documentation (null: none). */
  docs: (sefId: string) => ['docs', sefId] as const,
  /** `GET /api/content/{name}`: the about page or a legal text. */
  contentPage: (name: string) => ['content-page', name] as const,
  /** A page the server rendered itself (the blog's), by route path; never fetched as JSON. */
  storePage: (path: string) => ['store-page', path.replace(/\/+$/, '') || '/'] as const,
};
