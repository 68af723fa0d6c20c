import path from 'node:path';
import { SERVER_NODE_ARGS } from '../../scripts/start.mjs';
import { type Child, freePort, startChild, stopChild, stopStrays, waitFor200 } from './proc.ts';

export const BENCH_SESSION_SECRET = 'kitshop-bench-session-secret-0123456789';

export type Server = { child: Child; port: number; url: string; pid: number; dataDir: string };

/** The environment of a bench server: the caller's, minus what would change what is measured. */
export function serverEnv(options: {
  port: number;
  dataDir: string;
  catalogDir: string;
  databaseUrl?: string;
  /** Settings of a feature under measure (GITHUB_* pointing at a local stand-in). */
  env?: Record<string, string>;
}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DATABASE_URL', 'PAYMENT_PROVIDER', 'NODE_ENV', 'BASE_PATH', 'PUBLIC_URL', 'GA_MEASUREMENT_ID']) {
    delete env[name];
  }
  return {
    ...env,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    CATALOG_DIR: options.catalogDir,
    LOG_LEVEL: 'warn',
    // The README: "off only for local load tests"; 50 connections from one address are one.
    RATE_LIMITS: 'off',
    // Known, so the bench can sign sandbox webhook events the way the server expects them.
    SESSION_SECRET: BENCH_SESSION_SECRET,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
}

/** Starts `node <entry>` (dist/node/server/main.js or scripts/start.mjs) and waits for /readyz → 200. */
export async function startServer(
  root: string,
  name: string,
  options: {
    entry: string;
    dataDir: string;
    catalogDir: string;
    databaseUrl?: string;
    timeoutMs?: number;
    env?: Record<string, string>;
  },
): Promise<Server> {
  const port = await freePort();
  const child = startChild(name, process.execPath, [...SERVER_NODE_ARGS, path.join(root, options.entry)], {
    cwd: root,
    env: serverEnv({ port, ...options }),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}/readyz`, child, { timeoutMs: options.timeoutMs ?? 120_000 });
  return { child, port, url, pid: child.proc.pid!, dataDir: options.dataDir };
}

/**
 * SIGTERM (SIGKILL after 5 s), then waits for the embedded PostgreSQL of its DATA_DIR to end
 * (stopping it if it outlives the server). Returns a problem to report, if any.
 */
export async function stopServer(server: Server): Promise<string | undefined> {
  await stopChild(server.child);
  const code = await server.child.exited;
  const leftovers = await stopStrays([server.dataDir], 5_000);
  const problems: string[] = [];
  if (code !== 0) {
    const error = server.child.output.find((line) => /^\w*Error\b|"level":(50|60)/.test(line));
    problems.push(`exited with code ${code} after SIGTERM${error ? ` (${error.slice(0, 200)})` : ''}`);
  }
  if (leftovers > 0) problems.push(`left ${leftovers} process(es) of its embedded PostgreSQL running`);
  return problems.length > 0 ? `${server.child.name}: ${problems.join('; ')}` : undefined;
}
