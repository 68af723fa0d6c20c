import { describe, expect, it } from 'vitest';
import { dayIn, isTimeZone, lastDayIn, nextDay, startOfDay } from './shop-days.ts';

describe('days in the shop time zone', () => {
  it('starts a day at its midnight in the zone, across clock changes', () => {
    expect(startOfDay('2026-12-02', 'UTC').toISOString()).toBe('2026-12-02T00:00:00.000Z');
    expect(startOfDay('2026-12-02', 'America/New_York').toISOString()).toBe('2026-12-02T05:00:00.000Z');
    expect(startOfDay('2026-07-02', 'America/New_York').toISOString()).toBe('2026-07-02T04:00:00.000Z');
    expect(startOfDay('2026-12-02', 'Europe/Berlin').toISOString()).toBe('2026-12-01T23:00:00.000Z');
    expect(startOfDay('2026-12-02', 'Pacific/Kiritimati').toISOString()).toBe('2026-12-01T10:00:00.000Z');
    // The days the clocks change (at 2:00 and 3:00, not at midnight) still start at midnight.
    expect(startOfDay('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDay('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfDay('2026-10-25', 'Europe/Berlin').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    // Santiago moves its clocks at midnight in September: that day begins at 01:00 (-03:00).
    expect(startOfDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('names the day of an instant and the last day before an exclusive end', () => {
    expect(dayIn('2026-12-03T04:59:00Z', 'America/New_York')).toBe('2026-12-02');
    expect(dayIn('2026-12-03T04:59:00Z', 'UTC')).toBe('2026-12-03');
    expect(lastDayIn('2026-12-03T05:00:00.000Z', 'America/New_York')).toBe('2026-12-02');
    expect(lastDayIn('2026-12-03T00:00:00.000Z', 'UTC')).toBe('2026-12-02');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });

  it('knows IANA zones only', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
