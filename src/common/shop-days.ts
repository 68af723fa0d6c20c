/**
 * Calendar days in the shop's time zone (`SHOP_TIME_ZONE`, an IANA name such as `Europe/Berlin`).
 * An owner's "ends 2 Dec" means the code works all of 2 Dec where the shop is, so dates typed as
 * days become instants here: a start is the first moment of its day, an end the first moment of the
 * next day (stored ends are exclusive). Shared by the server (storing) and the console (showing).
 */

/** Whether `zone` is a time zone the runtime knows (`Intl` throws a RangeError otherwise). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(zone: string) {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock in `zone` at `at`, read as if it were UTC (milliseconds). */
function wallClock(at: number, zone: string): number {
  const parts = Object.fromEntries(
    formatIn(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

/** The calendar day (`YYYY-MM-DD`) in `zone` at an instant. */
export function dayIn(at: Date | string, zone: string): string {
  return new Date(wallClock(new Date(at).getTime(), zone)).toISOString().slice(0, 10);
}

/**
 * The first moment of `day` (`YYYY-MM-DD`) in `zone`. Usually its midnight; where a clock change
 * skips midnight, the first time the day has (the earliest of the candidates that falls on it).
 */
export function startOfDay(day: string, zone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  const offsetAt = (at: number) => wallClock(at, zone) - at;
  const first = midnight - offsetAt(midnight);
  const second = midnight - offsetAt(first);
  const onDay = [first, second].filter((at) => dayIn(new Date(at), zone) === day);
  return new Date(Math.min(...(onDay.length > 0 ? onDay : [first])));
}

/** The day after `day` (`YYYY-MM-DD`), by the calendar. */
export const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A stored exclusive end as the last day the code works in `zone` (the day before the end's instant). */
export const lastDayIn = (end: Date | string, zone: string) => dayIn(new Date(new Date(end).getTime() - 1), zone);

/** Whether a date as typed is a whole day (`2026-12-02`) rather than a moment with its time. */
export const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
