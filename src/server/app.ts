import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { PAGE_QUERY_KEYS } from '../common/page-data.ts';
import type { Config } from './config.ts';
import type { Database } from './db/open.ts';
import { registerBodyParsers, registerFormParser } from './http/body.ts';
import { AppError, clientErrorHandler, frameworkErrorHandler, registerErrorHandler } from './http/errors.ts';
import { registerHtmlPageAssets } from './http/html-page.ts';
import type { KeptPages } from './http/kept-pages.ts';
import { type PageRenderer, registerPageShell, type ShellPage, type ShellTemplate } from './http/page-shell.ts';
import { ON_THE_FLY } from './http/precompressed.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { zodValidatorCompiler } from './http/route-schemas.ts';
import { DEFAULT_CACHE_CONTROL, registerSecurity, securityHeaders } from './http/security.ts';
import { registerSession } from './http/session.ts';
import type { GithubOAuth, GithubRepositories } from './integrations/github/github.ts';
import type { GoogleSignIn } from './integrations/oidc/google.ts';
import { sandboxWebhookSecret } from './integrations/payments/sandbox.ts';
import type { Storage } from './integrations/storage/storage.ts';
import type { JobCounts } from './lib/job-runner.ts';
import { OneLinePerRequest, requestLogger } from './lib/log.ts';
import { registerAccountRoutes, registerGoogleRoutes } from './modules/accounts/accounts.routes.ts';
import { registerSecurityRoutes } from './modules/accounts/security.routes.ts';
import { registerCatalogRoutes } from './modules/catalog/catalog.routes.ts';
import { catalogScreenHeads } from './modules/catalog/catalog.screens.ts';
import type { Catalog } from './modules/catalog/catalog.service.ts';
import { registerBlogRoutes } from './modules/content/blog.routes.ts';
import type { BlogPost } from './modules/content/blog.service.ts';
import { contentScreenQueries, registerContentPageRoutes } from './modules/content/pages.routes.ts';
import { type ContentPages, loadShopContentPages } from './modules/content/pages.service.ts';
import { registerSeoRoutes } from './modules/content/seo.routes.ts';
import { registerGithubRoutes } from './modules/github/github.routes.ts';
import { registerLibraryRoutes } from './modules/library/library.routes.ts';
import { registerLicenceApiRoutes } from './modules/licences/licences.api.routes.ts';
import { registerLicenceRoutes } from './modules/licences/licences.routes.ts';
import { licenceKeyBox } from './modules/licences/licences.service.ts';
import { registerMessageRoutes } from './modules/messages/messages.routes.ts';
import { registerOrderRoutes } from './modules/orders/orders.routes.ts';
import { registerSandboxRoutes } from './modules/orders/sandbox.routes.ts';
import { registerSeatRoutes } from './modules/orders/seats.routes.ts';
import { registerStorefrontRoutes } from './modules/orders/storefront.routes.ts';
import { createShopStats } from './modules/orders/storefront.service.ts';
import { registerOwnerRoutes } from './modules/owner/owner.routes.ts';
import { findOwner, ownerAddressesSql } from './modules/owner/owner.service.ts';
import { registerPrivacyRoutes } from './modules/privacy/privacy.routes.ts';

export type AppDeps = {
  config: Config;
  db: Database;
  catalog: Catalog;
  storage: Storage;
  /** The HTML shell for a URL (the built index.html, or Vite's transform in development). */
  template: ShellTemplate;
  /** The web app's server renderer for the public screens (dist/ssr); without it the browser renders them. */
  render?: PageRenderer;
  /** Where the page shell keeps the pages it rendered (tests read it; a store of the shell's own when absent). */
  keptPages?: KeptPages<ShellPage>;
  /** The built web app (assets); absent in tests of the API alone and in development. */
  webDir?: string;
  cookieSecret: string;
  /** Called after a mail was queued, so the outbox worker sends it now rather than at its next round. */
  mailQueued?: () => void;
  /** What the background job runners did so far, by queue (for the metrics). */
  jobCounts?: () => Record<string, JobCounts>;
  /** The blog's posts, read from CATALOG_DIR/blog at start. */
  posts?: BlogPost[];
  /** The about page and the legal texts (content/legal/*.md); read from CATALOG_DIR/legal at start when absent. */
  contentPages?: ContentPages;
  /** Google sign-in, when configured. */
  google?: GoogleSignIn;
  /** Private-repository delivery, when configured (GITHUB_*): the OAuth flow, the client, the worker's nudge. */
  github?: { oauth: GithubOAuth; repositories: GithubRepositories; jobsQueued: () => void };
  dev?: boolean;
  logger?: FastifyBaseLogger;
  /** Lets development mount Vite's middleware before routes. */
  beforeRoutes?: (app: FastifyInstance) => Promise<void> | void;
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A request id a proxy may pass on (nginx's $request_id): short, and nothing a log line could be forged with. */
const FORWARDED_REQUEST_ID = /^[\w.:-]{8,128}$/;

/**
 * Each request's id: the trusted proxy's `X-Request-Id` when it sends one (so its access log and
 * ours name the same request), a random UUID otherwise. Every log line of the request carries it
 * (`reqId`) and the answer sends it back as `X-Request-Id`.
 */
export function requestIdFrom(trustProxy: boolean) {
  return (request: { headers: Record<string, string | string[] | undefined> }) => {
    const given = request.headers['x-request-id'];
    return trustProxy && typeof given === 'string' && FORWARDED_REQUEST_ID.test(given) ? given : randomUUID();
  };
}

/** Plugins, then feature modules, then one error handler. Tests call it and use app.inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, catalog, storage } = deps;
  const contentPages = deps.contentPages ?? loadShopContentPages(config);
  const headers = securityHeaders(config, { dev: deps.dev ?? false });
  const limits = config.connections;
  const trustedProxies = config.trustProxy ? config.trustProxy.split(',').map((s) => s.trim()) : false;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    logController: new OneLinePerRequest(),
    childLoggerFactory: requestLogger,
    trustProxy: trustedProxies,
    requestIdHeader: false,
    genReqId: requestIdFrom(Boolean(config.trustProxy)),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    frameworkErrors: frameworkErrorHandler(headers),
    clientErrorHandler: clientErrorHandler(headers),
  });
  app.server.maxConnections = limits.maxConnections;

  // What every answer says besides its body, set in one hook (it runs on every request, callback
  // style, which spares it a promise): the security headers, the request's id, and a Cache-Control
  // that keeps it in no browser or proxy. An answer that may be kept (static files, the docs JSON,
  // the blog, the sitemap) sets its own Cache-Control over it.
  const everyAnswer = { ...headers, 'cache-control': DEFAULT_CACHE_CONTROL };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(everyAnswer).header('x-request-id', request.id);
    done();
  });
  registerErrorHandler(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  registerBodyParsers(app);
  registerFormParser(app);
  await app.register(fastifyCookie, { secret: deps.cookieSecret });
  // HTML and JSON compressed on the fly (assets come pre-compressed from the build).
  await app.register(fastifyCompress, {
    global: true,
    threshold: ON_THE_FLY.threshold,
    encodings: ['br', 'gzip'],
    brotliOptions: ON_THE_FLY.brotliOptions,
  });
  await registerSecurity(app, config);
  registerSession(app, db, config);
  if (deps.beforeRoutes) await deps.beforeRoutes(app);

  let countPaymentEvent: ((outcome: string) => void) | undefined;
  await app.register(
    async (scope) => {
      if (config.metricsToken) {
        // prom-client is loaded only where metrics are asked for.
        const { createMetrics, registerMetrics } = await import('./metrics.ts');
        const metrics = createMetrics({
          db,
          pool: db.$client,
          catalogLookups: catalog.lookups,
          jobCounts: deps.jobCounts,
        });
        registerMetrics(app, scope, metrics, config.metricsToken);
        countPaymentEvent = metrics.countPaymentEvent;
      }
      scope.get('/healthz', { config: { csrf: false } }, async () => ({ status: 'ok' }));
      scope.get('/readyz', async (_request, reply) => {
        try {
          await db.$client.query('SELECT 1');
          return { status: 'ready' };
        } catch {
          return reply.status(503).send({ message: 'The database is not reachable.' });
        }
      });

      if (deps.webDir) {
        await scope.register(fastifyStatic, {
          root: deps.webDir,
          prefix: '/',
          decorateReply: false,
          index: false,
          wildcard: false,
          preCompressed: true,
          // A route for each file, but not for its .br and .gz forms: those are sent in its place
          // (preCompressed), never asked for by name. 2/3 fewer routes to set up at each start.
          globIgnore: ['**/*.br', '**/*.gz'],
          cacheControl: false,
          setHeaders: (res, filePath) => {
            res.header('cache-control', filePath.includes('/assets/') ? IMMUTABLE : 'public, max-age=3600');
          },
          allowedPath: (pathName) => pathName !== '/index.html',
        });
      }
      if (!storage.readPublic) {
        await scope.register(fastifyStatic, {
          root: storage.publicDir,
          prefix: '/media/',
          decorateReply: false,
          index: false,
          cacheControl: false,
          setHeaders: (res) => res.header('cache-control', IMMUTABLE),
        });
      } else {
        // Remote storage: media are streamed through, so every server of the shop serves them alike.
        const { readPublic } = storage;
        scope.get('/media/*', { compress: false }, async (request, reply) => {
          const object = await readPublic((request.params as { '*': string })['*']);
          if (!object) throw new AppError('not_found', 'We could not find that file.');
          if (object.size !== undefined) reply.header('content-length', String(object.size));
          return reply
            .header('cache-control', IMMUTABLE)
            .type(object.contentType ?? 'application/octet-stream')
            .send(object.body);
        });
      }

      // What the form-handling features share: the database, settings, limits and the mail nudge.
      const forms = {
        db,
        config,
        limiter: createRateLimiter(db, config.rateLimits),
        mailQueued: deps.mailQueued ?? (() => {}),
        sessionSecret: deps.cookieSecret,
      };
      const posts = deps.posts ?? [];
      registerAccountRoutes(scope, forms);
      registerSecurityRoutes(scope, forms);
      registerMessageRoutes(scope, forms);
      registerPrivacyRoutes(scope, { ...forms, githubQueued: deps.github?.jobsQueued });
      registerHtmlPageAssets(scope);
      const shopStats = createShopStats(db);
      const contentQueries = contentScreenQueries(contentPages);
      // The single-page app's shell (every screen's route); the blog's pages are served in it too.
      const shell = registerPageShell(scope, {
        config,
        catalog,
        heads: catalogScreenHeads(catalog, config),
        template: deps.template,
        render: deps.render,
        // The home page renders with the shop's figures, and is kept as long as they are: the page and
        // GET /api/shop-stats say the same, so the browser's asking again moves nothing on it.
        screenQueries: async (pattern) => {
          if (pattern !== '/') return contentQueries(pattern);
          // Without its figures (a failed count) the page still renders, kept for no time; the browser asks again.
          const stats = await shopStats.get().catch(() => null);
          return stats
            ? { queries: [[PAGE_QUERY_KEYS.shopStats(), stats]], keepUntil: shopStats.keptUntil() }
            : { queries: [], keepUntil: 0 };
        },
        keptPages: deps.keptPages,
        googleEnabled: Boolean(deps.google),
        isOwner: async (userId) => (await findOwner(db, config, userId)) !== null,
        // Development re-renders every page (Vite transforms the shell per request).
        cache: !deps.dev,
      });
      registerBlogRoutes(scope, { config, posts, sendPage: shell.sendPage });
      registerContentPageRoutes(scope, contentPages);
      if (deps.google) registerGoogleRoutes(scope, forms, deps.google);
      registerLibraryRoutes(scope, { db, storage, githubWebUrl: deps.github && config.github?.webUrl });
      const licenceBox = licenceKeyBox(deps.cookieSecret);
      registerLicenceRoutes(scope, { db, box: licenceBox });
      registerLicenceApiRoutes(scope, { db, limiter: forms.limiter });
      if (deps.github && config.github) registerGithubRoutes(scope, { db, config, ...deps.github });
      const payments = {
        db,
        config,
        catalog,
        mailQueued: forms.mailQueued,
        githubQueued: deps.github?.jobsQueued,
        webhookSecret:
          config.paymentProvider === 'paddle' ? config.paddle.webhookSecret! : sandboxWebhookSecret(deps.cookieSecret),
        saleRecipients: ownerAddressesSql(config),
        countPaymentEvent,
        licenceBox,
      };
      registerOrderRoutes(scope, payments);
      registerSeatRoutes(scope, {
        db,
        mail: config,
        limiter: forms.limiter,
        mailQueued: forms.mailQueued,
        githubQueued: deps.github?.jobsQueued,
        licenceBox,
      });
      registerStorefrontRoutes(scope, { db, catalog, timeZone: config.shopTimeZone, stats: shopStats });
      // The sandbox pays and refunds through the very same webhook route a real payment uses.
      const deliverWebhook = (body: string, signature: string) =>
        app.inject({
          method: 'POST',
          url: `${config.basePath}/api/webhooks/paddle`,
          headers: { 'content-type': 'application/json', 'paddle-signature': signature },
          payload: body,
        });
      if (config.paymentProvider === 'sandbox') registerSandboxRoutes(scope, { ...payments, deliverWebhook });
      registerOwnerRoutes(scope, {
        db,
        config,
        catalog,
        storage,
        mailQueued: forms.mailQueued,
        githubQueued: deps.github?.jobsQueued,
        licenceBox,
        sandboxWebhook:
          config.paymentProvider === 'sandbox'
            ? { secret: payments.webhookSecret, deliver: deliverWebhook }
            : undefined,
      });
      registerCatalogRoutes(scope, catalog);
      registerSeoRoutes(scope, { config, catalog, posts });
    },
    { prefix: config.basePath },
  );

  app.setNotFoundHandler((request, reply) => {
    if (config.basePath && request.method === 'GET' && (request.url === '/' || request.url.startsWith('/?'))) {
      return reply.redirect(`${config.basePath}/`);
    }
    return reply.status(404).send({ message: 'Not found.' });
  });
  return app;
}
