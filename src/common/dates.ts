/** A calendar day, `YYYY-MM-DD`, as content and the server write it. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * '2025-07-01' -> '1 July 2025' (en-GB's long date), the same on every machine and in every time
 * zone. Spelt out rather than asked of `Intl`: the storefront's cards and product pages show it, and
 * a page's first `Intl` call loads the runtime's locale data, one long task on a phone's main thread.
 */
export function longDate(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
