import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { migrateDatabase, openPool } from '../../src/server/db/open.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser (embedded) or TEST_DATABASE_URL's role: creates and drops the test databases. */
    adminDatabaseUrl: string;
    /** The template as the role the app connects with; each test database is a copy it owns. */
    templateDatabaseUrl: string;
    templateDatabase: string;
  }
}

/**
 * One database server for the whole run: the embedded PostgreSQL by default, or the server at
 * TEST_DATABASE_URL. A template database is migrated once; each test file copies it (milliseconds).
 */
export default async function setup(project: TestProject) {
  const template = `kitshop_template_${process.pid}`;
  let adminUrl = process.env.TEST_DATABASE_URL;
  let templateUrl: string;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  if (!adminUrl) {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-test-'));
    // The template is the app role's database, as in production: tests run without a superuser.
    const embedded = await startEmbeddedPostgres(
      tmp,
      { info: () => {}, error: console.warn },
      {
        database: template,
        durable: false,
      },
    );
    adminUrl = embedded.adminUrl;
    templateUrl = embedded.url;
    stopEmbedded = embedded.stop;
  } else {
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    templateUrl = url.toString();
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (!stopEmbedded) {
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
  }
  const pool = openPool(templateUrl, { log: console, max: 2 });
  await migrateDatabase(pool);
  await pool.end();
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabaseUrl', templateUrl);
  project.provide('templateDatabase', template);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await stopEmbedded?.();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
}
