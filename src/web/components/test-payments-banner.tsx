import { clientConfig } from '../lib/initial-data.ts';

/**
 * A production shop on the sandbox provider (a demo shop) says above every page that its payments
 * are not real, so nobody takes a test card's "paid" for a purchase.
 */
export function TestPaymentsBanner() {
  return clientConfig.testPayments ? <p className="test-payments-banner">Test payments: no real charges</p> : null;
}
