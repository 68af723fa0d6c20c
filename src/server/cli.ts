import { ConfigError, loadConfig } from './config.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { migrateDatabase, openDatabase, openPool } from './db/open.ts';
import { createLocalStorage } from './integrations/storage/storage.ts';
import { CatalogContentError, importCatalog } from './modules/catalog/catalog.import.ts';

const USAGE = `Usage: npm run catalog      import or update the kits in CATALOG_DIR (default ./content)`;

/**
 * Owner commands. With no DATABASE_URL they use the embedded database in DATA_DIR (stop a running
 * `npm start` on the same DATA_DIR first: one PostgreSQL cluster per folder).
 */
async function main(command: string | undefined): Promise<number> {
  if (command !== 'catalog') {
    console.error(USAGE);
    return 64;
  }
  const config = loadConfig();
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, { info: (m) => console.log(m), error: (m) => console.error(m) });
  const pool = openPool(config.databaseUrl ?? embedded!.url, 2);
  try {
    await migrateDatabase(pool);
    const report = await importCatalog(openDatabase(pool), createLocalStorage(config.dataDir), config.catalogDir);
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

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof CatalogContentError || error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
