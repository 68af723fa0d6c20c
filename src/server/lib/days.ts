import { type SQL, sql } from 'drizzle-orm';

/** Calendar days (YYYY-MM-DD) in UTC, as the owner console counts them. */

/** The instant a UTC day starts, for comparing with timestamptz columns (indexes stay usable). */
export const dayStart = (day: string): SQL => sql`(${day}::date::timestamp AT TIME ZONE 'UTC')`;

/** The UTC day of a timestamptz expression. */
export const utcDay = (column: SQL): SQL => sql`(${column} AT TIME ZONE 'UTC')::date`;

export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export const today = (now = Date.now()): string => new Date(now).toISOString().slice(0, 10);

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}
