/** Money is integer cents on the server; dollars appear only at the edges (wire and screen). */

const DOLLARS = /^(\d{1,7})(?:\.(\d{1,2}))?$/;

/** "49", "49.5", "49.50" -> 4950; anything else -> null. */
export function parseDollarsToCents(value: string): number | null {
  const match = DOLLARS.exec(value.trim());
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + fraction;
}

/** 4950 -> 49.5 (the number the API sends). */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** Rounds a dollar amount to 2 decimals without binary drift (0.1 + 0.2 -> 0.3). */
export function roundDollars(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** 49.5 -> "USD 49.50": the cart's and the checkout's form (the spec's 'USD x'). */
export function formatUsd(dollars: number): string {
  return `USD ${dollars.toFixed(2)}`;
}

/** A price as a shop shows it beside a product: 149 -> "$149", 49.5 -> "$49.50". */
export function formatPrice(dollars: number): string {
  return Number.isInteger(dollars) ? `$${dollars}` : `$${dollars.toFixed(2)}`;
}
