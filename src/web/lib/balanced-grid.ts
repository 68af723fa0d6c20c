/** Breakpoints at which a grid changes its number of columns; below the first, one per row. */
export type GridColumns = Partial<Record<'sm' | 'md' | 'lg' | 'xl', 2 | 3>>;

/**
 * How many of 12 columns item `index` of `count` takes in rows of `perRow`, so that no row holds a
 * lone item and no row ends in a hole: 3+1 becomes 2+2, 3+2 fills its row with two halves,
 * 3+3+1 becomes 3+2+2, and 2+2+1 becomes 2+3.
 */
export function balancedSpan(index: number, count: number, perRow: 2 | 3): number {
  if (count <= perRow) return 12 / count;
  const rest = count % perRow;
  if (rest === 0) return 12 / perRow;
  // A lone last item takes one from the row above: two rows of two, or (two per row) one of three.
  const tail = rest === 1 ? perRow + 1 : rest;
  if (index < count - tail) return 12 / perRow;
  return rest === 1 && perRow === 3 ? 6 : rest === 1 ? 4 : 12 / rest;
}

/** Bootstrap column classes for item `index` of `count`: `col-12 col-md-6 col-xl-4` balanced. */
export function balancedColumns(index: number, count: number, columns: GridColumns): string {
  const classes = ['col-12'];
  for (const [breakpoint, perRow] of Object.entries(columns)) {
    classes.push(`col-${breakpoint}-${balancedSpan(index, count, perRow)}`);
  }
  return classes.join(' ');
}
