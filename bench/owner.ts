/**
 * `npm run bench:owner`: the owner console figures alone (the full `npm run bench` includes them):
 * a fresh database on the PostgreSQL server at 127.0.0.1:5432, the built server on it, the seed,
 * then every /api/admin read with 10 owners at once, and the accounting export of every order.
 */
import path from 'node:path';
import pg from 'pg';
import { EXPORT_TARGET_MS, measureOwnerConsole, OWNERS, SEED } from './lib/owner.ts';
import { cleanUp, makeTempDir } from './lib/proc.ts';
import { startServer, stopServer } from './lib/server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `kitshop_bench_owner_${process.pid}`;

const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  server = await startServer(ROOT, 'server [owner bench]', {
    entry: 'dist/node/server/main.js',
    dataDir: makeTempDir('kitshop-bench-owner-'),
    catalogDir: path.join(ROOT, process.env.BENCH_CATALOG ?? 'tests/fixtures/catalog'),
    databaseUrl: `postgres://postgres@127.0.0.1:5432/${database}`,
  });
  console.log(`Seeding ${SEED.customers} customers and ${SEED.orders} orders, then ${OWNERS} owners at once:`);
  const figures = await measureOwnerConsole(
    server.url,
    `postgres://postgres@127.0.0.1:5432/${database}`,
    (l) => console.log(l),
    server.pid,
  );
  console.log(
    `\nseed: ${(figures.seedMs / 1000).toFixed(1)} s; first 12-month summary (fills sales_days): ${figures.coldSummaryMs.toFixed(0)} ms`,
  );
  console.log('\n| call | p50 | p99 | target | ok? |\n| --- | --- | --- | --- | --- |');
  for (const c of figures.calls) {
    const target = c.call === 'summary, 12 months' ? 150 : 100;
    console.log(
      `| ${c.call} | ${c.p50Ms.toFixed(1)} ms | ${c.p99Ms.toFixed(1)} ms | <= ${target} ms | ${c.p99Ms <= target && c.failures === 0 ? 'yes' : '**NO**'} |`,
    );
  }
  const exported = figures.export;
  console.log(
    `| orders.csv, ${exported.rows} rows | ${(exported.ms / 1000).toFixed(2)} s | — | <= ${EXPORT_TARGET_MS / 1000} s | ${exported.status === 200 && exported.ms <= EXPORT_TARGET_MS ? 'yes' : '**NO**'} |`,
  );
} finally {
  if (server) await stopServer(server);
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  await cleanUp();
}
