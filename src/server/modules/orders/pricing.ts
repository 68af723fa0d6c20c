/**
 * Cart pricing rules, pure and in integer cents: upgrade prices of bundles and discount codes.
 * The service reads the catalog, ownership and codes; these functions only do the arithmetic.
 */

export type CodeTerms = { percentOff: number | null; amountOffCents: number | null };

/**
 * What a code takes off each line (cents), for lines priced `baseCents` (after any upgrade price);
 * lines not `eligible` get 0. A percentage is taken off each eligible line, rounded to the cent. An
 * amount applies once per order, spread over the eligible lines in proportion to their prices
 * (largest remainders get the odd cents), and never takes a line below zero.
 */
export function spreadDiscount(lines: { baseCents: number; eligible: boolean }[], code: CodeTerms): number[] {
  if (code.percentOff !== null) {
    const percent = code.percentOff;
    return lines.map((l) => (l.eligible ? Math.min(l.baseCents, Math.round((l.baseCents * percent) / 100)) : 0));
  }
  const eligibleSum = lines.reduce((sum, l) => sum + (l.eligible ? l.baseCents : 0), 0);
  const total = Math.min(code.amountOffCents ?? 0, eligibleSum);
  if (total <= 0) return lines.map(() => 0);
  const shares = lines.map((l) => (l.eligible ? Math.floor((total * l.baseCents) / eligibleSum) : 0));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const byRemainder = lines
    .map((l, i) => ({ i, rest: l.eligible ? (total * l.baseCents) % eligibleSum : -1 }))
    .filter((r) => r.rest >= 0)
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    if (shares[i]! < lines[i]!.baseCents) {
      shares[i]! += 1;
      left--;
    }
  }
  return shares;
}

/**
 * A bundle's price for a buyer who paid `paidCents` for some of its kits already: the bundle's
 * price less that, never below zero nor below the bundle's upgrade floor.
 */
export function upgradePriceCents(bundleCents: number, paidCents: number, floorCents: number | null): number {
  return Math.min(bundleCents, Math.max(bundleCents - paidCents, floorCents ?? 0, 0));
}
