/**
 * `npm run bench:versions`: the kit-version figures alone. A fresh database on the PostgreSQL
 * server at 127.0.0.1:5432 and the built server on it; then a version published to 10,000 buyers
 * (target: its mails queued within 5 s, one per buyer) and a 100 MB archive uploaded (target: the
 * server's RSS grows by at most 50 MB).
 */
import path from 'node:path';
import pg from 'pg';
import { BUYERS, measureKitVersions } from './lib/kit-versions.ts';
import { cleanUp, makeTempDir } from './lib/proc.ts';
import { startServer, stopServer } from './lib/server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `kitshop_bench_versions_${process.pid}`;
const MB = 1024 * 1024;

const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  server = await startServer(ROOT, 'server [versions bench]', {
    entry: 'dist/node/server/main.js',
    dataDir: makeTempDir('kitshop-bench-versions-data-'),
    catalogDir: path.join(ROOT, 'tests/fixtures/catalog'),
    databaseUrl: `postgres://postgres@127.0.0.1:5432/${database}`,
  });
  const f = await measureKitVersions(server.url, `postgres://postgres@127.0.0.1:5432/${database}`, server.pid, (l) =>
    console.log(l),
  );
  const growth = f.rssPeakBytes - f.rssBeforeBytes;
  const ok = (pass: boolean) => (pass ? 'yes' : '**NO**');
  console.log('\n| figure | value | target | ok? |\n| --- | --- | --- | --- |');
  console.log(
    `| publish to ${BUYERS.toLocaleString('en-US')} buyers (request, mails queued) | ${(f.publishMs / 1000).toFixed(2)} s | <= 5 s | ${ok(f.publishMs <= 5000)} |`,
  );
  console.log(
    `| update mails queued / distinct recipients | ${f.mailsQueued} / ${f.distinctRecipients} | ${BUYERS} / ${BUYERS} | ${ok(f.mailsQueued === BUYERS && f.distinctRecipients === BUYERS)} |`,
  );
  console.log(
    `| 100 MB upload: server RSS before -> peak | ${(f.rssBeforeBytes / MB).toFixed(0)} -> ${(f.rssPeakBytes / MB).toFixed(0)} MB (+${(growth / MB).toFixed(1)} MB) | <= +50 MB | ${ok(growth <= 50 * MB && f.uploadStatus === 200)} |`,
  );
  console.log(`| 100 MB upload: publish request | ${(f.uploadMs / 1000).toFixed(1)} s (${f.uploadStatus}) | | |`);
} finally {
  if (server) await stopServer(server);
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  await cleanUp();
}
