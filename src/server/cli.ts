import { promises as fs } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { BackupError, restoreBackup, writeBackup } from './backup.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { connectRunningEmbeddedPostgres, type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded.ts';
import { migrateDatabase, openDatabase, openPool } from './db/open.ts';
import { DISCOUNTS_USAGE, importDiscountsFile, parseDiscountArgs, runDiscounts } from './discounts-cli.ts';
import { openStorage } from './integrations/storage/storage.ts';
import { exportCatalog } from './modules/catalog/catalog.export.ts';
import { importCatalog } from './modules/catalog/catalog.import.ts';
import { CatalogContentError } from './modules/catalog/catalog.read.ts';
import { subscriberCsvLines } from './modules/messages/messages.owner.service.ts';
import { latestMessages } from './modules/messages/messages.service.ts';
import { addOwner, listOwners, removeOwner } from './modules/owner/owner.service.ts';
import { DEMO_PASSWORD, parseSeedArgs, seedDemoSales } from './seed.ts';

const USAGE = `Usage:
  npm run catalog                   import or update the kits in CATALOG_DIR (default ./content); kits
                                    changed in the owner console are reported and kept as the console has them
  npm run catalog -- --force        the same, and the content wins over the console's changes
  npm run catalog -- export DIR     write the catalog (database and storage) to DIR in the import format
  npm run subscribers -- export FILE
                                    the active newsletter subscribers as CSV, written to FILE
  npm run -s subscribers -- export > FILE
                                    the same on standard output (-s keeps npm's banner out of it)
  npm run messages -- list          the latest contact messages
  npm run owner -- add EMAIL        make the (verified) account with this e-mail a shop owner
  npm run owner -- remove EMAIL     end that
  npm run owner -- list             the owners (these and OWNER_EMAILS)
  npm run seed -- --customers 50000 --orders 100000
                                    demo customers and 18 months of sales (a demo database only)
  npm run backup -- FILE            a consistent backup of the database and the stored files, while the store runs
  npm run restore -- FILE           restores a backup into an empty DATA_DIR (or empty database and bucket)
${DISCOUNTS_USAGE}`;

/** A visitor's text for the terminal: one line, no control characters (no escape sequences). */
const printable = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '');

/** The database could not be opened: one line saying what to do, no stack trace. */
class DatabaseUnavailable extends Error {}

const firstLine = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .trim();

/**
 * The owner commands' database: DATABASE_URL, or the embedded one in DATA_DIR. A running
 * `npm start` holds that cluster (PostgreSQL allows one server per folder), so the commands join
 * it; otherwise they start it for their own run. Migrated before use, like the server does.
 */
async function openOwnerDatabase(
  config: Config,
  options: { migrate: boolean } = { migrate: true },
): Promise<{ pool: pg.Pool; embedded?: EmbeddedDatabase }> {
  let embedded: EmbeddedDatabase | undefined;
  let pool: pg.Pool | undefined;
  try {
    if (!config.databaseUrl) {
      embedded =
        (await connectRunningEmbeddedPostgres(config.dataDir)) ??
        (await startEmbeddedPostgres(config.dataDir, { info: (m) => console.error(m), error: () => {} }));
    }
    pool = openPool(config.databaseUrl ?? embedded!.url, { log: { warn: () => {} }, max: 2 });
    if (options.migrate) await migrateDatabase(pool);
    else await pool.query('SELECT 1');
    return { pool, embedded };
  } catch (error) {
    await pool?.end().catch(() => {});
    await embedded?.stop().catch(() => {});
    if (config.databaseUrl) {
      const { host } = new URL(config.databaseUrl);
      throw new DatabaseUnavailable(
        `Cannot open the database at DATABASE_URL (${host}): ${firstLine(error)}. Check that PostgreSQL runs there and accepts this address, or unset DATABASE_URL to use the embedded database in DATA_DIR.`,
      );
    }
    throw new DatabaseUnavailable(
      `Cannot open the embedded database in ${config.dataDir} (${firstLine(error)}). If npm start is starting on this DATA_DIR, wait until it serves and run this again; otherwise stop it, then run this again (or set DATABASE_URL).`,
    );
  }
}

async function main(command: string | undefined, sub: string | undefined, arg?: string): Promise<number> {
  const seed = command === 'seed' ? parseSeedArgs(process.argv.slice(3)) : undefined;
  if (typeof seed === 'string') {
    console.error(seed);
    return 64;
  }
  const discounts = command === 'discounts' ? parseDiscountArgs(process.argv.slice(3)) : undefined;
  if (typeof discounts === 'string') {
    console.error(discounts === DISCOUNTS_USAGE ? USAGE : discounts);
    return 64;
  }
  const known =
    discounts !== undefined ||
    (command === 'catalog' &&
      (sub === undefined || (sub === '--force' && arg === undefined) || (sub === 'export' && Boolean(arg)))) ||
    command === 'seed' ||
    (command === 'owner' &&
      (sub === 'list' || ((sub === 'add' || sub === 'remove') && /^[^\s@]+@[^\s@]+$/.test(arg ?? '')))) ||
    (command === 'subscribers' && sub === 'export' && process.argv.length <= 5) ||
    (command === 'messages' && sub === 'list') ||
    ((command === 'backup' || command === 'restore') && Boolean(sub) && process.argv.length === 4);
  if (!known) {
    console.error(USAGE);
    return 64;
  }
  const config = loadConfig();
  const { pool, embedded } = await openOwnerDatabase(config, { migrate: command !== 'restore' });
  try {
    const db = openDatabase(pool);
    if (command === 'backup' || command === 'restore') return await backupCommand(command, config, pool, sub!);
    if (discounts) return await runDiscounts(db, config, discounts);
    if (command === 'subscribers') {
      const csv = await subscriberCsvLines(db);
      if (!arg) {
        console.log(csv.join('\n'));
        return 0;
      }
      await fs.writeFile(arg, `${csv.join('\n')}\n`);
      console.error(`${csv.length - 1} subscriber(s) written to ${arg}`);
      return 0;
    }
    if (seed) {
      const started = Date.now();
      console.log(`Seeding ${seed.customers} customers and ${seed.orders} orders`);
      await seedDemoSales(pool, { ...seed, log: (line) => console.log(line) });
      console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Customers sign in with ${DEMO_PASSWORD}.`);
      return 0;
    }
    if (command === 'owner') {
      if (sub === 'add') {
        const added = await addOwner(db, arg!);
        console.log(
          `${arg} ${added ? 'is an owner now' : 'was an owner already'} (once its account exists and is verified).`,
        );
      } else if (sub === 'remove') {
        const removed = await removeOwner(db, arg!);
        console.log(removed ? `${arg} is no longer an owner.` : `${arg} was not an owner added here.`);
        if (config.ownerEmails.includes(arg!.toLowerCase()))
          console.log('It is still in OWNER_EMAILS: remove it there too.');
      } else {
        const list = await listOwners(db, config);
        if (list.length === 0) console.log('No owners yet: npm run owner -- add EMAIL, or set OWNER_EMAILS.');
        for (const o of list)
          console.log(`${o.email.padEnd(40)} ${o.from.padEnd(13)} ${o.active ? 'active' : 'no verified account yet'}`);
      }
      return 0;
    }
    if (command === 'messages') {
      const messages = await latestMessages(db);
      if (messages.length === 0) console.log('No contact messages yet.');
      for (const m of messages) {
        console.log(
          `#${m.id}  ${m.createdAt.toISOString()}  ${printable(m.name)} <${printable(m.email)}>  [${m.topic ?? 'no topic'}]`,
        );
        console.log(`    ${printable(m.message).slice(0, 300)}`);
      }
      return 0;
    }
    if (sub === 'export') {
      const exported = await exportCatalog(db, await openStorage(config), arg!);
      console.log(`Catalog exported to ${arg}`);
      console.log(
        `  written   ${exported.written.length}${exported.written.length ? `: ${exported.written.join(', ')}` : ''}`,
      );
      for (const line of exported.skipped) console.log(`  skipped   ${line}`);
      return 0;
    }
    const report = await importCatalog(db, await openStorage(config), config.catalogDir, config, {
      force: sub === '--force',
    });
    console.log(`Catalog imported from ${config.catalogDir}`);
    if (report.conflicts.length > 0)
      console.log(
        '  conflicts are kits changed both in the owner console and in the content: kept as the console has them (npm run catalog -- --force takes the content)',
      );
    for (const [label, list] of Object.entries(report)) {
      console.log(`  ${label.padEnd(9)} ${list.length}${list.length ? `: ${list.join(', ')}` : ''}`);
    }
    for (const line of await importDiscountsFile(db, config)) console.log(`  ${line}`);
    return 0;
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

/** `npm run backup -- FILE`, `npm run restore -- FILE`: the session secret goes along when it was generated. */
async function backupCommand(command: 'backup' | 'restore', config: Config, pool: pg.Pool, file: string) {
  const storage = await openStorage(config);
  const secretFile = path.join(config.dataDir, 'session-secret');
  const started = Date.now();
  const summary =
    command === 'backup'
      ? await writeBackup(pool, storage, file, {
          sessionSecret: config.sessionSecret
            ? undefined
            : (await fs.readFile(secretFile, 'utf8').catch(() => '')).trim() || undefined,
        })
      : await restoreBackup(pool, storage, file, {
          writeSessionSecret: async (secret) => {
            if (config.sessionSecret) return;
            await fs.mkdir(config.dataDir, { recursive: true });
            await fs.writeFile(secretFile, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch((error) => {
              if (error.code !== 'EEXIST') throw error;
            });
          },
        });
  const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
  console.log(
    `${command === 'backup' ? 'Backed up to' : 'Restored from'} ${file}: ${rows} rows in ${Object.keys(summary.tables).length} tables, ` +
      `${summary.objects} files (${(summary.bytes / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}

main(process.argv[2], process.argv[3], process.argv[4]).then(
  (code) => process.exit(code),
  (error) => {
    console.error(
      error instanceof CatalogContentError ||
        error instanceof ConfigError ||
        error instanceof DatabaseUnavailable ||
        error instanceof BackupError
        ? error.message
        : error,
    );
    process.exit(1);
  },
);
