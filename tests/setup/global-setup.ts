import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { migrateDatabase, openPool } from '../../src/server/db/open.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}

/**
 * One database server for the whole run: the embedded PostgreSQL by default, or the server at
 * TEST_DATABASE_URL. A template database is migrated once; each test file copies it (milliseconds).
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  if (!adminUrl) {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-test-'));
    const embedded = await startEmbeddedPostgres(tmp, { info: () => {}, error: console.warn }, 'postgres', {
      durable: false,
    });
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const template = `kitshop_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const pool = openPool(url.toString(), 2);
  await migrateDatabase(pool);
  await pool.end();
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await stopEmbedded?.();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
}
