import { useHydrated } from '../lib/hydration.ts';
import { clientConfig } from '../lib/initial-data.ts';

const BANNER_CLASS = 'test-payments-banner';
/**
 * Whether the page the server rendered has the banner: hydration must find what the server drew,
 * even should the page's settings say otherwise (the browser follows them right after).
 */
const serverDrewIt = typeof document !== 'undefined' && document.querySelector(`.${BANNER_CLASS}`) !== null;

/**
 * A production shop on the sandbox provider (a demo shop) says above every page that its payments
 * are not real, so nobody takes a test card's "paid" for a purchase.
 */
export function TestPaymentsBanner() {
  const hydrated = useHydrated();
  const shown = hydrated || typeof document === 'undefined' ? clientConfig.testPayments : serverDrewIt;
  return shown ? <p className={BANNER_CLASS}>Test payments: no real charges</p> : null;
}
