import { isoDay } from './format.ts';

export const PRESETS = [
  { id: 'today', label: 'Today' },
  { id: '7d', label: '7 days' },
  { id: '30d', label: '30 days' },
  { id: '12m', label: '12 months' },
  { id: 'custom', label: 'Custom' },
] as const;
export type PresetId = (typeof PRESETS)[number]['id'];

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The days (inclusive, local calendar) a preset covers, ending today. */
export function presetRange(preset: Exclude<PresetId, 'custom'>, now = new Date()): { from: string; to: string } {
  const to = isoDay(now);
  if (preset === 'today') return { from: to, to };
  if (preset === '12m') {
    const from = new Date(now.getFullYear() - 1, now.getMonth(), now.getDate() + 1);
    return { from: isoDay(from), to };
  }
  const days = preset === '7d' ? 7 : 30;
  return { from: isoDay(new Date(now.getTime() - (days - 1) * DAY_MS)), to };
}

/** The range from the address (`?range=7d`, or `?range=custom&from=..&to=..`); 30 days by default. */
export function rangeFromParams(params: URLSearchParams, now = new Date()) {
  const preset = (PRESETS.find((p) => p.id === params.get('range'))?.id ?? '30d') as PresetId;
  if (preset === 'custom') {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    if (DAY.test(from) && DAY.test(to) && from <= to) return { preset, from, to };
    return { preset, ...presetRange('30d', now) };
  }
  return { preset, ...presetRange(preset, now) };
}
