import { runHttpLoad } from './http-load.ts';
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

/** A warm-up run (discarded), then the measured run; loopback URLs only. */
export async function measureLoad(
  label: string,
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string> = {},
): Promise<LoadFigures> {
  const base = { url, method, headers, connections: CONNECTIONS, timeoutS: 5 };
  await runHttpLoad({ ...base, durationS: WARMUP_S });
  const before = cpuSnapshot();
  const result = await runHttpLoad({ ...base, durationS: DURATION_S });
  const foreign = foreignCpu(before, cpuSnapshot());
  const figures: LoadFigures = {
    label,
    url,
    method,
    requestsPerSecond: result.requestsPerSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    total: result.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    foreignCpuSeconds: foreign.seconds,
    foreignTop: foreign.top,
  };
  console.log(
    `  ${label}: ${Math.round(figures.requestsPerSecond)} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, ` +
      `${figures.total} requests, ${figures.non2xx} non-2xx, ${figures.errors} errors` +
      (busy(figures) ? `; other processes used ${figures.foreignCpuSeconds.toFixed(1)} CPU-s meanwhile` : ''),
  );
  return figures;
}

/** Other processes used more than 10% of a core during the run: the figures are suspect. */
export function busy(figures: LoadFigures): boolean {
  return figures.foreignCpuSeconds > DURATION_S * 0.1;
}
