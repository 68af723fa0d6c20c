import { describe, expect, it } from 'vitest';
import { presetRange, rangeFromParams } from './range.ts';

const now = new Date(2026, 2, 15, 10, 0); // 15 March 2026, local time

describe('dashboard ranges', () => {
  it('covers whole local days ending today', () => {
    expect(presetRange('today', now)).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    expect(presetRange('7d', now)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange('30d', now)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(presetRange('12m', now)).toEqual({ from: '2025-03-16', to: '2026-03-15' });
  });

  it('reads the range from the address, 30 days by default', () => {
    expect(rangeFromParams(new URLSearchParams(''), now)).toEqual({
      preset: '30d',
      from: '2026-02-14',
      to: '2026-03-15',
    });
    expect(rangeFromParams(new URLSearchParams('range=7d'), now).from).toBe('2026-03-09');
    expect(rangeFromParams(new URLSearchParams('range=custom&from=2026-01-01&to=2026-01-31'), now)).toEqual({
      preset: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
    });
  });

  it('falls back to 30 days for a custom range that is malformed or backwards', () => {
    expect(rangeFromParams(new URLSearchParams('range=custom&from=2026-02-01&to=2026-01-01'), now).from).toBe(
      '2026-02-14',
    );
    expect(rangeFromParams(new URLSearchParams('range=custom&from=x&to=y'), now).to).toBe('2026-03-15');
  });
});
