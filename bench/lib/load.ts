import { type HttpLoadResult, percentile, runHttpLoad } from './http-load.ts';
import { cpuSnapshot, foreignCpu } from './proc.ts';

export const CONNECTIONS = 50;
export const WARMUP_S = 3;
export const DURATION_S = 10;

export type LoadFigures = {
  label: string;
  url: string;
  method: 'GET' | 'POST';
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU seconds other processes on the machine used during the measured run. */
  foreignCpuSeconds: number;
  foreignTop: string[];
};

/** What Chromium sends with every request: the load runs ask as a browser does, unless told otherwise. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Other processes used more than 10% of a core during the run: the figures are suspect. */
export function busy(figures: LoadFigures): boolean {
  return figures.foreignCpuSeconds > DURATION_S * 0.1;
}

/** A load to compare: where it goes, how, and as what it is reported. */
export type LoadTarget = { label: string; url: string; method: 'GET' | 'POST'; headers?: Record<string, string> };

/** Slices per side in `measurePaired`: DURATION_S of load per side in all. */
export const PAIRED_SLICES = 5;
const PAIRED_SLICE_S = DURATION_S / PAIRED_SLICES;

/**
 * A route and a baseline measured in alternating slices (A B B A A B B A A B after a warm-up of each),
 * for a figure that is one's share of the other. On this kind of VM the machine's speed swings by a
 * third within a minute; two runs taken half a minute apart then compare the machine's phases as much
 * as the two servers (the same build gave the product page 38% to 55% of a hello-world measured
 * before it). Alternating short slices put both sides in the same phases. Each side's figures are
 * over all its slices: requests over their time, p50 and p99 over every answer.
 */
export async function measurePaired(
  baseline: LoadTarget,
  route: LoadTarget,
): Promise<{ baseline: LoadFigures; route: LoadFigures }> {
  const run = (target: LoadTarget, durationS: number) =>
    runHttpLoad({
      url: target.url,
      method: target.method,
      headers: target.headers ?? {},
      connections: CONNECTIONS,
      timeoutS: 5,
      durationS,
    });
  await run(baseline, WARMUP_S);
  await run(route, WARMUP_S);
  const slices: [HttpLoadResult[], HttpLoadResult[]] = [[], []];
  const before = cpuSnapshot();
  for (let at = 0; at < PAIRED_SLICES * 2; at++) {
    // A B, B A, A B, ...: neither side is always the one after the other.
    const side = (at + Math.floor(at / 2)) % 2;
    slices[side]!.push(await run(side === 0 ? baseline : route, PAIRED_SLICE_S));
  }
  const foreign = foreignCpu(before, cpuSnapshot());
  // Each side ran half the time: its share of what others used is half of it.
  const figuresOf = (target: LoadTarget, results: HttpLoadResult[]): LoadFigures => {
    const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const seconds = results.reduce((sum, r) => sum + r.elapsedS, 0);
    const sum = (key: 'non2xx' | 'errors' | 'timeouts') => results.reduce((total, r) => total + r[key], 0);
    return {
      label: target.label,
      url: target.url,
      method: target.method,
      requestsPerSecond: latencies.length / seconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      total: latencies.length,
      non2xx: sum('non2xx'),
      errors: sum('errors'),
      timeouts: sum('timeouts'),
      foreignCpuSeconds: foreign.seconds / 2,
      foreignTop: foreign.top,
    };
  };
  const figures = { baseline: figuresOf(baseline, slices[0]), route: figuresOf(route, slices[1]) };
  const { baseline: base, route: own } = figures;
  console.log(
    `  ${own.label}: ${Math.round(own.requestsPerSecond)} req/s against ${base.label}'s ${Math.round(base.requestsPerSecond)} ` +
      `in alternating slices (${slices[1].map((r) => Math.round(r.requestsPerSecond)).join(', ')} against ` +
      `${slices[0].map((r) => Math.round(r.requestsPerSecond)).join(', ')}), p50 ${own.p50Ms} ms, p99 ${own.p99Ms} ms, ` +
      `${own.total} requests, ${own.non2xx} non-2xx, ${own.errors} errors` +
      (busy(own) ? `; other processes used ${foreign.seconds.toFixed(1)} CPU-s meanwhile` : ''),
  );
  return figures;
}
