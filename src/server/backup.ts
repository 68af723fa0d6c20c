import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type pg from 'pg';
import { migrateDatabase, migrationJournal } from './db/open.ts';
import type { Storage, StorageArea } from './integrations/storage/storage.ts';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE`. A backup is one gzipped file of JSON
 * lines: a header (format, the migrations the database had), every table's rows read in one
 * REPEATABLE READ snapshot (parents before children), then every stored object (kit archives and
 * media, with size and SHA-256), the generated session secret, and an end line with the counts.
 * The store keeps serving meanwhile: the snapshot is consistent, and stored objects never change
 * (content-addressed keys), so objects written after the snapshot are at most extra.
 */
const FORMAT = 'kitshop-backup';
const VERSION = 1;
const CHUNK_BYTES = 1 << 20;
const ROWS_PER_FETCH = 1000;
const ROWS_PER_INSERT = 500;

export type BackupSummary = { tables: Record<string, number>; objects: number; bytes: number };

type Header = { format: string; version: number; createdAt: string; migrations: number[] };

export class BackupError extends Error {}

/** A database with a row in any of these holds a shop: a restore never writes over it. */
const SHOP_TABLES = ['users', 'kits', 'orders', 'subscribers', 'contact_messages'];

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `work` in one transaction, committed when it succeeds and rolled back when it throws. */
async function inTransaction(pool: pg.Pool, begin: string, work: (client: pg.PoolClient) => Promise<void>) {
  const client = await pool.connect();
  try {
    await client.query(begin);
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The schema's tables, each after the tables it references (so a restore inserts parents first). */
async function tablesInLoadOrder(client: pg.PoolClient | pg.Pool): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const { rows: links } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace AND k.conrelid <> k.confrelid`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const link of links) if (link.child === table) visit(link.parent);
    ordered.push(table);
  };
  for (const { name } of tables) visit(name);
  return ordered;
}

/** The `created_at` of each applied migration (drizzle's record), oldest first; [] before any. */
async function appliedMigrations(client: pg.PoolClient | pg.Pool): Promise<number[]> {
  const { rows } = await client.query<{ exists: boolean }>(
    `SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`,
  );
  if (!rows[0]?.exists) return [];
  const applied = await client.query<{ created_at: string }>(
    'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at',
  );
  return applied.rows.map((r) => Number(r.created_at));
}

/** Writes a backup of the database (through `pool`) and of `storage` to `file` (replaced only when complete). */
export async function writeBackup(
  pool: pg.Pool,
  storage: Storage,
  file: string,
  options: { sessionSecret?: string } = {},
): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  const gzip = zlib.createGzip();
  const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  const summary: BackupSummary = { tables: {}, objects: 0, bytes: 0 };
  try {
    await inTransaction(pool, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', async (client) => {
      const header: Header = {
        format: FORMAT,
        version: VERSION,
        createdAt: new Date().toISOString(),
        migrations: await appliedMigrations(client),
      };
      await write(JSON.stringify(header));
      for (const table of await tablesInLoadOrder(client)) {
        await write(JSON.stringify({ table }));
        summary.tables[table] = 0;
        await client.query(
          `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${quote(table)} t`,
        );
        for (;;) {
          const { rows } = await client.query<{ r: string }>(`FETCH ${ROWS_PER_FETCH} FROM backup_rows`);
          if (rows.length === 0) break;
          for (const row of rows) await write(`{"row":${row.r}}`);
          summary.tables[table] += rows.length;
        }
        await client.query('CLOSE backup_rows');
      }
    });
    // Objects are listed after the snapshot: every object a row of it names is there already.
    for await (const { area, key } of storage.listObjects()) {
      const bytes = await storage.readObject(area, key);
      if (!bytes) continue;
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await write(JSON.stringify({ object: { area, key, size: bytes.length, sha256 } }));
      for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
        await write(JSON.stringify({ chunk: Buffer.from(bytes.subarray(at, at + CHUNK_BYTES)).toString('base64') }));
      }
      summary.objects += 1;
      summary.bytes += bytes.length;
    }
    if (options.sessionSecret) await write(JSON.stringify({ sessionSecret: options.sessionSecret }));
    await write(JSON.stringify({ end: summary }));
    gzip.end();
    await written;
    await fs.rename(partial, file);
    return summary;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    await fs.rm(partial, { force: true });
    throw error;
  }
}

type Line =
  | { table: string }
  | { row: Record<string, unknown> }
  | { object: { area: StorageArea; key: string; size: number; sha256: string } }
  | { chunk: string }
  | { sessionSecret: string }
  | { end: BackupSummary };

async function* backupLines(file: string): AsyncGenerator<Record<string, unknown>> {
  const input = createReadStream(file).pipe(zlib.createGunzip());
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) {
      if (line) yield JSON.parse(line);
    }
  } catch (error) {
    throw new BackupError(`${file} is not a readable backup (${(error as Error).message}).`);
  }
}

/** How many of this code's migrations the backup's database had; refuses one made by a newer version. */
function migrationLevel(header: Header): number {
  const journal = migrationJournal();
  header.migrations.forEach((when, i) => {
    if (journal[i]?.when !== when)
      throw new BackupError(
        'This backup was made by a newer (or different) version of Kitshop: restore it with that version.',
      );
  });
  return header.migrations.length;
}

/** The columns a restore may write (generated ones are computed by PostgreSQL). */
async function writableColumns(client: pg.PoolClient): Promise<Map<string, Set<string>>> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND is_generated = 'NEVER'`,
  );
  const columns = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!columns.has(r.table_name)) columns.set(r.table_name, new Set());
    columns.get(r.table_name)!.add(r.column_name);
  }
  return columns;
}

/**
 * Restores `file` into an empty database (the schema is migrated to the backup's level, loaded,
 * then migrated to this version's) and its objects into `storage`, each checked by SHA-256.
 * `writeSessionSecret` keeps sessions valid when the shop uses a generated secret.
 */
export async function restoreBackup(
  pool: pg.Pool,
  storage: Storage,
  file: string,
  options: { writeSessionSecret?: (secret: string) => Promise<void> } = {},
): Promise<BackupSummary> {
  await fs.access(file).catch((error) => {
    throw new BackupError(`Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}.`);
  });
  const lines = backupLines(file);
  const first = (await lines.next()).value as Header | undefined;
  if (first?.format !== FORMAT || first.version !== VERSION) throw new BackupError(`${file} is not a Kitshop backup.`);
  const level = migrationLevel(first);
  for (const table of SHOP_TABLES) {
    const { rows: exists } = await pool.query('SELECT to_regclass($1) IS NOT NULL AS exists', [table]);
    if (!exists[0]?.exists) continue;
    const { rows } = await pool.query(`SELECT 1 FROM ${quote(table)} LIMIT 1`);
    if (rows.length > 0)
      throw new BackupError('The database is not empty: restore into a new DATA_DIR or an empty database.');
  }
  await migrateDatabase(pool, { upTo: level });
  const summary: BackupSummary = { tables: {}, objects: 0, bytes: 0 };
  let end: BackupSummary | undefined;
  await inTransaction(pool, 'BEGIN', async (client) => {
    const writable = await writableColumns(client);
    // The backup holds every table as it was, counters kept by triggers included: triggers stay off
    // while it loads, and what the migrations put into tables (a counter's first row) makes way.
    const tables = await tablesInLoadOrder(client);
    for (const name of [...tables].reverse()) {
      await client.query(`ALTER TABLE ${quote(name)} DISABLE TRIGGER USER`);
      await client.query(`DELETE FROM ${quote(name)}`);
    }
    let table = '';
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const allowed = writable.get(table);
      if (!allowed) throw new BackupError(`The backup has a table this version does not know: ${table}.`);
      const columns = Object.keys(batch[0]!)
        .filter((c) => allowed.has(c))
        .map(quote)
        .join(', ');
      await client.query(
        `INSERT INTO ${quote(table)} (${columns}) OVERRIDING SYSTEM VALUE
       SELECT ${columns} FROM json_populate_recordset(NULL::${quote(table)}, $1::json)`,
        [JSON.stringify(batch)],
      );
      summary.tables[table] = (summary.tables[table] ?? 0) + batch.length;
      batch = [];
    };
    let object: { area: StorageArea; key: string; size: number; sha256: string } | undefined;
    let parts: Buffer[] = [];
    const storeObject = async () => {
      if (!object) return;
      const bytes = Buffer.concat(parts);
      if (bytes.length !== object.size || createHash('sha256').update(bytes).digest('hex') !== object.sha256)
        throw new BackupError(`${object.area}/${object.key} in the backup is damaged (size or SHA-256 differs).`);
      await storage.writeObject(object.area, object.key, bytes);
      summary.objects += 1;
      summary.bytes += bytes.length;
      object = undefined;
      parts = [];
    };
    for await (const raw of lines) {
      const line = raw as Line;
      if ('row' in line) {
        batch.push(line.row);
        if (batch.length >= ROWS_PER_INSERT) await flush();
      } else if ('chunk' in line) {
        parts.push(Buffer.from(line.chunk, 'base64'));
      } else {
        await flush();
        await storeObject();
        if ('table' in line) {
          table = line.table;
          summary.tables[table] = 0;
        } else if ('object' in line) object = line.object;
        else if ('sessionSecret' in line) await options.writeSessionSecret?.(line.sessionSecret);
        else if ('end' in line) end = line.end;
      }
    }
    if (!end)
      throw new BackupError(`${file} is incomplete (no end line): it was cut off while being written or copied.`);
    if (JSON.stringify(end.tables) !== JSON.stringify(summary.tables) || end.objects !== summary.objects)
      throw new BackupError(`${file} does not hold what its end line counts.`);
    for (const name of tables) await client.query(`ALTER TABLE ${quote(name)} ENABLE TRIGGER USER`);
    // serial and identity columns continue after the restored rows.
    const { rows: sequenced } = await client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')`,
    );
    for (const { table_name, column_name } of sequenced) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(max(${quote(column_name)}), 1), max(${quote(column_name)}) IS NOT NULL)
         FROM ${quote(table_name)}`,
        [quote(table_name), column_name],
      );
    }
  });
  await migrateDatabase(pool);
  return summary;
}
