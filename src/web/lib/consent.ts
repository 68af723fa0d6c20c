import { useSyncExternalStore } from 'react';
import { ANALYTICS_CONSENT_KEY, ANALYTICS_CONSENT_MONTHS } from '../../common/constants.ts';
import { browserStorage, type StorageLike } from './storage.ts';

export type AnalyticsChoice = 'granted' | 'denied';

/** Six calendar months after `at` (the moment a choice was made). */
export function consentExpiry(at: number): number {
  const end = new Date(at);
  end.setMonth(end.getMonth() + ANALYTICS_CONSENT_MONTHS);
  return end.getTime();
}

/** The visitor's remembered choice, or null when none was made or it is older than 6 months. */
export function readConsent(storage: StorageLike = browserStorage('localStorage'), now = Date.now()) {
  try {
    const saved = JSON.parse(storage.getItem(ANALYTICS_CONSENT_KEY) ?? 'null') as { choice?: unknown; at?: unknown };
    if (!saved || (saved.choice !== 'granted' && saved.choice !== 'denied') || typeof saved.at !== 'number') {
      return null;
    }
    return now < consentExpiry(saved.at) && saved.at <= now ? (saved.choice as AnalyticsChoice) : null;
  } catch {
    return null;
  }
}

export function saveConsent(choice: AnalyticsChoice, storage = browserStorage('localStorage'), now = Date.now()) {
  try {
    storage.setItem(ANALYTICS_CONSENT_KEY, JSON.stringify({ choice, at: now }));
  } catch {
    // Storage refused: the choice holds for this page only, and the banner asks again next time.
  }
}

/**
 * Expires the analytics cookies (`_ga`, `_ga_<id>`, and the older `_gid`/`_gat`) on this host and
 * on every parent domain, as gtag.js sets them on the widest domain it may (`cookie_domain: auto`).
 */
export function deleteAnalyticsCookies(doc: Pick<Document, 'cookie'> = document, hostname = location.hostname) {
  const names = doc.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]!.trim())
    .filter((name) => /^_ga($|_)|^_gid$|^_gat/.test(name));
  const labels = hostname.split('.');
  const domains = ['', ...labels.slice(0, -1).map((_, i) => `; domain=.${labels.slice(i).join('.')}`)];
  for (const name of names) {
    for (const domain of domains) doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${domain}`;
  }
}

/** Whether the consent bar shows: at the first visit (no choice yet), or reopened by `Cookie Settings`. */
let bannerOpen = false;
let openedBySettings = false;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

export function setConsentBannerOpen(open: boolean, bySettings = false) {
  bannerOpen = open;
  openedBySettings = open && bySettings;
  notify();
}

/** The bar's state for React: open, and whether `Cookie Settings` opened it (then it takes focus). */
export function useConsentBanner() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => (bannerOpen ? (openedBySettings ? 'settings' : 'first-visit') : 'closed'),
    // The visitor's choice lives in the browser: the bar appears once the page has hydrated.
    () => 'closed',
  );
}
