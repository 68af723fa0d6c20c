/** CSV for spreadsheets (RFC 4180 lines ended by CRLF), shared by the owner console's downloads. */

/**
 * One CSV cell: quoted when it holds a separator, quote or line break; a leading = + - @ or control
 * character gets a ' first, so a spreadsheet never reads it as a formula (CSV injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A cell written as it is: a number the server made (an amount), which a spreadsheet sums. */
export type CsvNumber = { number: string };

/** One line, CRLF-ended: text cells through `csvCell` (a refund's -49.00 as a number stays a number), null empty. */
export const csvLine = (cells: (string | CsvNumber | null)[]): string =>
  `${cells.map((c) => (c === null ? '' : typeof c === 'string' ? csvCell(c) : c.number)).join(',')}\r\n`;
