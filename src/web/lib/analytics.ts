import {
  type AnalyticsChoice,
  deleteAnalyticsCookies,
  readConsent,
  saveConsent,
  setConsentBannerOpen,
} from './consent.ts';
import { clientConfig } from './initial-data.ts';

declare global {
  interface Window {
    dataLayer: unknown[];
    [gaDisable: `ga-disable-${string}`]: boolean | undefined;
  }
}

/**
 * gtag's own form: it pushes `arguments` objects (gtag.js ignores plain arrays). Events always
 * reach `window.dataLayer`; Google's script is loaded only when GA_MEASUREMENT_ID is set and the
 * visitor pressed `Accept Analytics`.
 */
export function gtag(..._args: unknown[]): void {
  // biome-ignore lint/complexity/noArguments: gtag.js reads Arguments objects from the data layer
  window.dataLayer.push(arguments);
}

/** Campaign tags, which the shop's own links carry for analytics. */
const CAMPAIGN_PARAMS = new Set(['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'utm_id']);

/**
 * An address as analytics may see it: origin and path, and of the query only campaign tags. A
 * reset or verification link's token and e-mail (and any other query, or fragment) stay out.
 */
export function analyticsUrl(href: string): string {
  const url = new URL(href);
  const kept = new URLSearchParams([...url.searchParams].filter(([name]) => CAMPAIGN_PARAMS.has(name)));
  const query = kept.toString();
  return `${url.origin}${url.pathname}${query ? `?${query}` : ''}`;
}

/** Google's script reports the address bar and the referrer by itself unless it is given these. */
const pageAddress = () => ({
  page_location: analyticsUrl(window.location.href),
  ...(document.referrer ? { page_referrer: analyticsUrl(document.referrer) } : {}),
});

const id = clientConfig.gaMeasurementId;
let scriptAdded = false;
/** The data layer's first commands, once, in the browser (the server's renderer has no window). */
function startDataLayer() {
  // Consent Mode v2: with analytics configured, everything starts denied, before any other command.
  if (id) {
    gtag('consent', 'default', {
      analytics_storage: 'denied',
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
    });
  }
  gtag('js', new Date());
  if (id) {
    gtag('config', id, { send_page_view: false, ...pageAddress() });
    const choice = readConsent();
    if (choice === 'granted') grantAnalytics(id);
    else if (choice === null) setConsentBannerOpen(true);
  }
}
if (typeof window !== 'undefined') {
  window.dataLayer = window.dataLayer || [];
  startDataLayer();
}

/** Google's script, added once and only after `Accept Analytics` (now or on an earlier visit). */
function grantAnalytics(measurementId: string) {
  gtag('consent', 'update', { analytics_storage: 'granted' });
  window[`ga-disable-${measurementId}`] = false;
  if (scriptAdded) return;
  scriptAdded = true;
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  document.head.appendChild(script);
}

/**
 * The visitor's answer on the consent bar, remembered for 6 months. Accepting loads Google's
 * script; rejecting (or withdrawing an earlier yes) denies storage, stops a script already
 * loaded from sending anything (`ga-disable-<id>`) and deletes the `_ga` cookies. The page-view and
 * purchase events go to `window.dataLayer` either way: only Google's script reads them.
 */
export function chooseAnalytics(choice: AnalyticsChoice): void {
  saveConsent(choice);
  setConsentBannerOpen(false);
  if (!id) return;
  if (choice === 'granted') {
    grantAnalytics(id);
    return;
  }
  gtag('consent', 'update', { analytics_storage: 'denied' });
  window[`ga-disable-${id}`] = true;
  deleteAnalyticsCookies();
}

export function trackPageView(path: string, title: string): void {
  const address = pageAddress();
  // Every later event (a purchase, Google's own engagement events) reports this address too.
  gtag('set', address);
  gtag('event', 'page_view', { page_path: path, page_title: title, page_location: address.page_location });
}
