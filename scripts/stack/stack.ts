import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { startTestS3, type TestS3 } from '../../tests/setup/s3.ts';
import { SERVER_NODE_ARGS } from '../start.mjs';

/**
 * Two Kitshop instances behind nginx (Debian's package), on one PostgreSQL and one S3 bucket (a
 * local s3rver), under a base path, with TRUST_PROXY set to nginx: `npm run stack`, the e2e suite
 * through the proxy (E2E_STACK=nginx), the rolling-restart test and the two-instance bench.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const TEMPLATE = path.join(root, 'scripts/stack/nginx.conf.template');

export type StackOptions = {
  /** Where nginx listens (127.0.0.1). */
  port: number;
  /** The instances' ports, one each (two by default: port + 1, port + 2). */
  instancePorts?: number[];
  /** `/shop` by default. */
  basePath?: string;
  /** A PostgreSQL database for both; unset starts an embedded one, once, for both. */
  databaseUrl?: string;
  /** More environment for the instances (SMTP_URL, GOOGLE_*, RATE_LIMITS ...). */
  env?: Record<string, string>;
  /** What the instances print: their own log lines (default) or nothing. */
  quiet?: boolean;
  /** The public address when it is not nginx's own (PUBLIC_URL). */
  publicUrl?: string;
};

export type Instance = { port: number; child?: ChildProcess; exited?: Promise<number | null> };

export type Stack = {
  /** nginx's address with the base path, no trailing slash: `http://127.0.0.1:4600/shop`. */
  url: string;
  databaseUrl: string;
  /** The stack's working folder: nginx's configuration and logs are in `nginx/`. */
  dir: string;
  /** A superuser's address when the database is the embedded one. */
  adminDatabaseUrl?: string;
  s3: TestS3;
  instances: Instance[];
  /** SIGTERM one instance and wait for it to exit; answers its exit code. */
  stopInstance(index: number): Promise<number | null>;
  startInstance(index: number): Promise<void>;
  stop(): Promise<void>;
};

async function waitUntilReady(url: string, child: ChildProcess, name: string) {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not become ready at ${url}`);
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

export async function startStack(options: StackOptions): Promise<Stack> {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX} (Debian: apt-get install nginx)`);
  const main = path.join(root, 'dist/node/server/main.js');
  if (!existsSync(main)) throw new Error('Build first: npm run build');
  const basePath = (options.basePath ?? '/shop').replace(/\/+$/, '');
  const ports = options.instancePorts ?? [options.port + 1, options.port + 2];
  const work = mkdtempSync(path.join(os.tmpdir(), 'kitshop-stack-'));
  // The embedded PostgreSQL runs as its own user, which must reach its folder inside.
  chmodSync(work, 0o711);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
  };
  try {
    let databaseUrl = options.databaseUrl;
    let adminDatabaseUrl: string | undefined;
    if (!databaseUrl) {
      const database = await startEmbeddedPostgres(
        path.join(work, 'db'),
        { info: () => {}, error: console.error },
        { database: 'kitshop', durable: false },
      );
      cleanups.push(() => database.stop());
      databaseUrl = database.url;
      adminDatabaseUrl = database.adminUrl;
    }
    const s3 = await startTestS3('kitshop-stack');
    cleanups.push(() => s3.stop());

    const url = `http://127.0.0.1:${options.port}${basePath}`;
    // One DATA_DIR for both (only local mail files live there with DATABASE_URL and S3), one secret.
    const dataDir = path.join(work, 'data');
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      BASE_PATH: basePath || '/',
      PUBLIC_URL: options.publicUrl ?? url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      TRUST_PROXY: '127.0.0.1',
      CATALOG_DIR: path.join(root, 'content'),
      LOG_LEVEL: 'warn',
      ...s3.env,
      ...options.env,
    };
    const instances: Instance[] = ports.map((port) => ({ port }));
    const startInstance = async (index: number) => {
      const instance = instances[index]!;
      const child = spawn(process.execPath, [...SERVER_NODE_ARGS, main], {
        cwd: root,
        stdio: ['ignore', options.quiet ? 'ignore' : 'inherit', options.quiet ? 'ignore' : 'inherit'],
        env: { ...process.env, ...env, PORT: String(instance.port) },
      });
      instance.child = child;
      instance.exited = exitOf(child);
      await waitUntilReady(`http://127.0.0.1:${instance.port}${basePath}/readyz`, child, `instance ${index + 1}`);
    };
    const stopInstance = async (index: number) => {
      const instance = instances[index]!;
      if (!instance.child || instance.child.exitCode !== null) return instance.child?.exitCode ?? null;
      instance.child.kill('SIGTERM');
      return instance.exited!;
    };
    cleanups.push(() => Promise.all(instances.map((_, i) => stopInstance(i))).then(() => {}));
    // Both at once, as after a deploy: one imports the catalog into the empty database, the other waits.
    await Promise.all(instances.map((_, i) => startInstance(i)));

    const conf = readFileSync(TEMPLATE, 'utf8')
      .replaceAll('{{DIR}}', work)
      .replaceAll('{{PORT}}', String(options.port))
      .replaceAll('{{BASE}}', basePath)
      .replaceAll('{{LOCATION}}', basePath || '/')
      .replaceAll('{{UPSTREAMS}}', ports.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join('\n    '));
    mkdirSync(path.join(work, 'nginx'), { recursive: true });
    writeFileSync(path.join(work, 'nginx/nginx.conf'), conf);
    const nginx = spawn(NGINX, ['-p', path.join(work, 'nginx'), '-c', 'nginx.conf', '-e', 'error.log'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const nginxExited = exitOf(nginx);
    cleanups.push(async () => {
      nginx.kill('SIGQUIT');
      await nginxExited;
    });
    await waitUntilReady(`${url}/healthz`, nginx, 'nginx');
    return { url, dir: work, databaseUrl, adminDatabaseUrl, s3, instances, stopInstance, startInstance, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
