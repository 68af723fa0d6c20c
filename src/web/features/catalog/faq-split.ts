/** The FAQ in two columns, the first half rounded up. */
export function splitFaq<T>(items: T[]): [T[], T[]] {
  const half = Math.ceil(items.length / 2);
  return [items.slice(0, half), items.slice(half)];
}
