import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppDeps, buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { type Database, openDatabase, openPool } from '../../src/server/db/open.ts';
import type { Mailer, OutgoingMail } from '../../src/server/integrations/mail/mailer.ts';
import { deliverDueMail } from '../../src/server/integrations/mail/outbox.ts';
import type { GoogleSignIn } from '../../src/server/integrations/oidc/google.ts';
import { openStorage } from '../../src/server/integrations/storage/storage.ts';
import { workBesideAnswersDone } from '../../src/server/modules/accounts/accounts.service.ts';
import { importCatalog } from '../../src/server/modules/catalog/catalog.import.ts';
import { type Catalog, createCatalog } from '../../src/server/modules/catalog/catalog.service.ts';
import { loadBlog } from '../../src/server/modules/content/blog.service.ts';

export const FIXTURE_CATALOG = fileURLToPath(new URL('../fixtures/catalog', import.meta.url));
export const DEMO_CATALOG = fileURLToPath(new URL('../../content', import.meta.url));

/** A fresh database for one test file, copied from the migrated template. */
export async function createTestDatabase(): Promise<{
  url: string;
  pool: pg.Pool;
  db: Database;
  drop: () => Promise<void>;
}> {
  const name = `kitshop_t_${randomBytes(6).toString('hex')}`;
  const adminUrl = inject('adminDatabaseUrl');
  const url = new URL(inject('templateDatabaseUrl'));
  url.pathname = `/${name}`;
  const owner = decodeURIComponent(url.username);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(
        `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}${owner ? ` OWNER ${admin.escapeIdentifier(owner)}` : ''}`,
      );
      break;
    } catch (error) {
      // Two files copying the template in the same instant: try again shortly.
      if (attempt > 20 || !String(error).includes('being accessed by other users')) throw error;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  const pool = openPool(url.toString(), { log: console, max: 5 });
  return {
    url: url.toString(),
    pool,
    db: openDatabase(pool),
    async drop() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** What NODE_ENV=production requires besides a payment provider (an https PUBLIC_URL and a secret). */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://demo.shop.test',
  SESSION_SECRET: 'a-production-secret-of-32-characters!',
};

/**
 * The web app's own server renderer (src/web/entry-server.tsx, loaded from source), for tests of
 * what the public screens' HTML holds.
 */
export const webRenderer: NonNullable<AppDeps['render']> = async (input) => {
  const { render } = await import('../../src/web/entry-server.tsx');
  return render(input);
};

export const TEST_TEMPLATE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><!--app-head--></head><body><div id="root"></div><!--app-data--></body></html>';

export type TestApp = {
  app: FastifyInstance;
  db: Database;
  pool: pg.Pool;
  catalog: Catalog;
  config: Config;
  dataDir: string;
  /** Mails handed to the (capturing) mailer so far. */
  mails: OutgoingMail[];
  /** Runs one outbox round, as the worker would. */
  deliverMail: (mailer?: Mailer) => Promise<number>;
  close: () => Promise<void>;
};

const silent = { info: () => {}, warn: () => {} };

/** buildApp() on its own database and data folder, with the fixture catalog imported. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    catalogDir?: string;
    routes?: (app: FastifyInstance) => void;
    /** Runs before the app's own routes are registered (an `onRoute` hook sees them all). */
    beforeRoutes?: AppDeps['beforeRoutes'];
    google?: GoogleSignIn;
    /** Private-repository delivery (with GITHUB_* in env). */
    github?: AppDeps['github'];
    /** The app's logger (default: none), e.g. createLogger's into a captured stream. */
    logger?: FastifyBaseLogger;
    /** Settings no environment variable reaches (socket timeouts, for example). */
    configure?: (config: Config) => Config;
    /** A built web folder to serve as `npm start` serves dist/web. */
    webDir?: string;
    /** The public screens' server renderer (dist/ssr's, or a test's own). */
    render?: AppDeps['render'];
    /** Where the page shell keeps its pages (to count them, or with a small limit). */
    keptPages?: AppDeps['keptPages'];
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-data-'));
  const loaded = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...env });
  const config = options.configure ? options.configure(loaded) : loaded;
  const storage = await openStorage(config);
  await importCatalog(database.db, storage, options.catalogDir ?? FIXTURE_CATALOG);
  const catalog = createCatalog(database.db);
  const app = await buildApp({
    config,
    db: database.db,
    catalog,
    storage,
    template: () => TEST_TEMPLATE,
    cookieSecret: 'test-secret-test-secret-test-secret',
    google: options.google,
    github: options.github,
    logger: options.logger,
    webDir: options.webDir,
    render: options.render,
    beforeRoutes: options.beforeRoutes,
    keptPages: options.keptPages,
    posts: loadBlog(path.join(options.catalogDir ?? FIXTURE_CATALOG, 'blog')),
  });
  const mails: OutgoingMail[] = [];
  const capture: Mailer = { send: async (mail) => void mails.push(mail), close: () => {} };
  options.routes?.(app);
  await app.ready();
  return {
    app,
    db: database.db,
    pool: database.pool,
    catalog,
    config,
    dataDir,
    mails,
    async deliverMail(mailer = capture) {
      // Mails queued beside an answer (reset links) first, then rounds until nothing due is left.
      await workBesideAnswersDone();
      let total = 0;
      for (;;) {
        const sent = await deliverDueMail(database.db, mailer, silent);
        if (sent === 0) return total;
        total += sent;
      }
    },
    async close() {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The CSRF token and cookie a browser would hold after loading a page. */
export async function browserSession(app: FastifyInstance, base = ''): Promise<{ csrf: string; cookie: string }> {
  const page = await app.inject({ method: 'GET', url: `${base}/` });
  const data = JSON.parse(/<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(page.body)![1]!);
  const cookie = page.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { csrf: data.csrf, cookie };
}
