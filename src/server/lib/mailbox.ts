/** Domains that deliver to the same Gmail mailboxes; Gmail also ignores dots in the local part. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as one key: addresses that differ only in case, by a `+tag`
 * (plus-addressing), or, at Gmail, by dots in the local part or `googlemail.com` for `gmail.com`
 * reach the same person, so they are one customer where a rule counts customers. Not an address
 * to send to. The migration that added `discount_redemptions.mailbox` backfilled it with this rule
 * written in SQL (`discounts.routes.test.ts` checks that both agree).
 */
export function mailboxKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  // A tag follows the first '+'; a local part that starts with '+' has no name before it to keep.
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = 'gmail.com';
    local = local.replaceAll('.', '');
  }
  return `${local}@${domain}`;
}
