import { ConfigError, loadConfig } from './config.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { migrateDatabase, openDatabase, openPool } from './db/open.ts';
import { openStorage } from './integrations/storage/storage.ts';
import { importCatalog } from './modules/catalog/catalog.import.ts';
import { CatalogContentError } from './modules/catalog/catalog.read.ts';
import { activeSubscribers, latestMessages } from './modules/messages/messages.service.ts';

const USAGE = `Usage:
  npm run catalog                   import or update the kits in CATALOG_DIR (default ./content)
  npm run subscribers -- export     the active newsletter subscribers as CSV, on standard output
  npm run messages -- list          the latest contact messages`;

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Owner commands. With no DATABASE_URL they use the embedded database in DATA_DIR (stop a running
 * `npm start` on the same DATA_DIR first: one PostgreSQL cluster per folder).
 */
/** A visitor's text for the terminal: one line, no control characters (no escape sequences). */
const printable = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '');

async function main(command: string | undefined, sub: string | undefined): Promise<number> {
  const known =
    command === 'catalog' ||
    (command === 'subscribers' && sub === 'export') ||
    (command === 'messages' && sub === 'list');
  if (!known) {
    console.error(USAGE);
    return 64;
  }
  const config = loadConfig();
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, { info: (m) => console.error(m), error: (m) => console.error(m) });
  const pool = openPool(config.databaseUrl ?? embedded!.url, { log: console, max: 2 });
  try {
    await migrateDatabase(pool);
    const db = openDatabase(pool);
    if (command === 'subscribers') {
      console.log('email,subscribed_at');
      for (const row of await activeSubscribers(db))
        console.log(`${csvField(row.email)},${row.subscribedAt.toISOString()}`);
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
    const report = await importCatalog(db, await openStorage(config), config.catalogDir, config);
    console.log(`Catalog imported from ${config.catalogDir}`);
    for (const [label, list] of Object.entries(report)) {
      console.log(`  ${label.padEnd(9)} ${list.length}${list.length ? `: ${list.join(', ')}` : ''}`);
    }
    return 0;
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

main(process.argv[2], process.argv[3]).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof CatalogContentError || error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
