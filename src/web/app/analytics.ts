import { clientConfig } from '../lib/initial-data.ts';

declare global {
  interface Window {
    dataLayer: unknown[];
  }
}

window.dataLayer = window.dataLayer || [];

/**
 * gtag's own form: it pushes `arguments` objects (gtag.js ignores plain arrays). Events always
 * reach `window.dataLayer`; Google's script is loaded only when GA_MEASUREMENT_ID is set.
 */
export function gtag(..._args: unknown[]): void {
  // biome-ignore lint/complexity/noArguments: gtag.js reads Arguments objects from the data layer
  window.dataLayer.push(arguments);
}

const id = clientConfig.gaMeasurementId;
gtag('js', new Date());
if (id) {
  gtag('config', id, { send_page_view: false });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  document.head.appendChild(script);
}

export function trackPageView(path: string, title: string): void {
  gtag('event', 'page_view', { page_path: path, page_title: title, page_location: window.location.href });
}
