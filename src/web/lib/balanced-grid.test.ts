import { describe, expect, it } from 'vitest';
import { balancedColumns, balancedSpan } from './balanced-grid.ts';

/** The rows a grid of 12 columns makes of these spans. */
function rows(count: number, perRow: 2 | 3): number[] {
  const result: number[] = [];
  let used = 12;
  for (let i = 0; i < count; i++) {
    const span = balancedSpan(i, count, perRow);
    if (used + span > 12) {
      result.push(0);
      used = 0;
    }
    used += span;
    result[result.length - 1]! += 1;
  }
  return result;
}

describe('balancedSpan', () => {
  it.each([
    [4, 3, [2, 2]],
    [5, 3, [3, 2]],
    [6, 3, [3, 3]],
    [7, 3, [3, 2, 2]],
    [8, 3, [3, 3, 2]],
    [10, 3, [3, 3, 2, 2]],
    [3, 2, [3]],
    [5, 2, [2, 3]],
    [7, 2, [2, 2, 3]],
    [2, 3, [2]],
    [1, 3, [1]],
  ] as const)('%i items in rows of %i make rows of %j', (count, perRow, expected) => {
    expect(rows(count, perRow)).toEqual(expected);
  });

  it('fills every row to the full width (no hole at the end)', () => {
    for (const perRow of [2, 3] as const) {
      for (let count = 1; count <= 12; count++) {
        const total = Array.from({ length: count }, (_, i) => balancedSpan(i, count, perRow)).reduce((a, b) => a + b);
        expect(total % 12, `${count} in rows of ${perRow}`).toBe(0);
      }
    }
  });
});

describe('balancedColumns', () => {
  it('gives Bootstrap classes per breakpoint', () => {
    expect(balancedColumns(0, 7, { md: 2, xl: 3 })).toBe('col-12 col-md-6 col-xl-4');
    expect(balancedColumns(6, 7, { md: 2, xl: 3 })).toBe('col-12 col-md-4 col-xl-6');
  });
});
