/** One line of the final table; ok = null for figures without a target (the baselines). */
export type Row = { figure: string; target: string; measured: string; ok: boolean | null };

const KB = 1000;
const MB = 1000 * 1000;

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`,
  kb: (bytes: number) => `${(bytes / KB).toFixed(1)} KB`,
  mb: (bytes: number) => `${(bytes / MB).toFixed(1)} MB`,
  s: (ms: number) => `${(ms / 1000).toFixed(2)} s`,
};

export const UNITS_NOTE = 'Sizes: KB = 1,000 bytes, MB = 1,000,000 bytes (decimal).';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

export function markdownTable(rows: Row[]): string {
  const lines = ['| figure | target | measured | ok? |', '| --- | --- | --- | --- |'];
  for (const row of rows) {
    const ok = row.ok === null ? '—' : row.ok ? 'yes' : '**NO — missed**';
    lines.push(`| ${cell(row.figure)} | ${cell(row.target)} | ${cell(row.measured)} | ${ok} |`);
  }
  return lines.join('\n');
}
