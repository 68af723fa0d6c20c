import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientConfig, InitialData } from '../../common/page-data.ts';
import { INDEXABLE_SCREENS, matchScreen } from '../../common/paths.ts';
import type { KitProduct } from '../../common/schemas/catalog.ts';
import {
  docsTitle,
  HOME_DESCRIPTION,
  HOME_TITLE,
  NOT_FOUND_TITLE,
  SCREEN_TITLES,
  SITE_NAME,
} from '../../common/site.ts';
import type { Config } from '../config.ts';
import { escapeHtml, scriptJson } from '../lib/escape.ts';
import { shopCookies } from './cookies.ts';
import type { SendStorePage, StorePage } from './html-page.ts';

/** A kit as the shell needs it: its product answer (head and JSON-LD) and its documentation pages. */
export type ShellKit = { product: KitProduct; kit: { docs: { slug: string }[] } };

/**
 * The catalog as the shell reads it (the catalog feature's own `Catalog` fits): the shell keeps the
 * pages it rendered until `snapshot()` answers another object.
 */
export type ShellCatalog = { snapshot(): Promise<object>; entry(sefId: string): Promise<ShellKit | undefined> };

type Head = {
  title: string;
  description: string;
  canonical: string | null;
  image?: string;
  jsonLd?: object;
  type?: string;
  /** Trusted head HTML of a server-rendered page. */
  extra?: string;
};

function renderHead(head: Head, config: Config): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    `<meta property="og:description" content="${escapeHtml(head.description)}">`,
    `<meta property="og:type" content="${head.type ?? 'website'}">`,
    `<meta name="twitter:card" content="${head.image ? 'summary_large_image' : 'summary'}">`,
  ];
  if (head.canonical) {
    tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}">`);
    tags.push(`<meta property="og:url" content="${escapeHtml(head.canonical)}">`);
  } else {
    tags.push('<meta name="robots" content="noindex">');
  }
  if (head.image) tags.push(`<meta property="og:image" content="${escapeHtml(head.image)}">`);
  if (head.jsonLd) tags.push(`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`);
  if (head.extra) tags.push(head.extra);
  void config;
  return tags.join('\n    ');
}

function productHead(entry: ShellKit, config: Config): Head {
  const { product } = entry;
  const url = `${config.publicUrl}/product/${product.sef_id}`;
  const images = product.details.screenshots.map((s) => `${config.publicUrl}/${s.url}`);
  return {
    title: product.title,
    description: product.spot,
    canonical: url,
    image: images[0],
    type: 'product',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.title,
      description: product.spot,
      sku: product.sef_id,
      image: images,
      brand: { '@type': 'Brand', name: SITE_NAME },
      offers: {
        '@type': 'Offer',
        url,
        price: product.price.toFixed(2),
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
      },
    },
  };
}

/** The HTML shell for a URL; `screenModule` names the lazy screen to preload (its source path under src/web). */
export type ShellTemplate = (url: string, screenModule?: string) => Promise<string> | string;

/** The owner console's paths (`/admin`, `/admin/orders/x`): a screen for owners, 404 for anyone else. */
const CONSOLE_PATH = /^\/admin(?:\/.*)?$/;

/** Lazy screens whose code the shell preloads, so it loads in parallel with the entry script. */
const SCREEN_MODULES: Record<string, string> = { '/product/:sefId': 'features/catalog/product-page.tsx' };
/** The screen that shows a server-rendered page (the blog's) between the app's header and footer. */
const STORE_PAGE_MODULE = 'features/content/blog-page.tsx';
const ROOT = '<div id="root"></div>';

/**
 * What #root holds before the app starts: the shop's bar (brand only, as tall as the app's header,
 * so nothing moves when the app replaces it) and the page in `main`, which the app keeps.
 */
function storePageRoot(html: string, config: Config): string {
  return `<header class="navbar site-header sticky-top"><div class="container"><a class="navbar-brand brand" href="${config.basePath}/"><span class="brand-mark" aria-hidden="true">K</span>${SITE_NAME}</a></div></header>
<main id="main">${html}</main>`;
}

/**
 * Serves every screen of the single-page app: the same HTML shell with the head for that route
 * (title, description, canonical, Open Graph, JSON-LD) and the initial data the app boots from.
 * Known screens answer 200; unknown routes and unknown kits answer 404 with the same shell, whose
 * app then shows the not-found page.
 */
export function registerPageShell(
  app: FastifyInstance,
  deps: {
    config: Config;
    catalog: ShellCatalog;
    template: ShellTemplate;
    googleEnabled: boolean;
    cache: boolean;
    /** Whether a signed-in user is a shop owner: `owner: true` in the initial data, and /admin exists. */
    isOwner?: (userId: number) => Promise<boolean>;
  },
): { sendPage: SendStorePage } {
  const { config, catalog, template } = deps;
  const cookies = shopCookies(config);
  const clientConfig: ClientConfig = {
    basePath: config.basePath,
    supportEmail: config.supportEmail,
    gaMeasurementId: config.gaMeasurementId ?? null,
    messageRetentionDays: config.retentionDays.contactMessages,
    googleEnabled: deps.googleEnabled,
    payment: {
      provider: config.paymentProvider,
      clientToken: config.paymentProvider === 'paddle' ? (config.paddle.clientToken ?? null) : null,
      environment: config.paddle.environment,
    },
    testPayments: config.production && config.paymentProvider === 'sandbox',
    cookies: { session: cookies.session, csrf: cookies.csrf, oidc: cookies.oidc, signIn: cookies.signIn },
  };
  const clientConfigJson = scriptJson(clientConfig);
  const notFound: Head = { title: NOT_FOUND_TITLE, description: HOME_DESCRIPTION, canonical: null };

  async function headFor(routePath: string): Promise<{ status: number; head: Head; module?: string }> {
    const match = matchScreen(routePath);
    if (!match) return { status: 404, head: notFound };
    switch (match.pattern) {
      case '/':
        return {
          status: 200,
          head: { title: HOME_TITLE, description: HOME_DESCRIPTION, canonical: `${config.publicUrl}/` },
        };
      case '/product/:sefId': {
        const entry = await catalog.entry(match.params.sefId ?? '');
        return entry
          ? { status: 200, head: productHead(entry, config), module: SCREEN_MODULES[match.pattern] }
          : { status: 404, head: notFound };
      }
      case '/docs/:sefId':
      case '/docs/:sefId/:page': {
        const entry = await catalog.entry(match.params.sefId ?? '');
        const page = match.params.page;
        if (!entry || entry.kit.docs.length === 0 || (page && !entry.kit.docs.some((d) => d.slug === page)))
          return { status: 404, head: notFound };
        const { title, spot } = entry.product;
        return {
          status: 200,
          head: {
            title: docsTitle(title),
            description: `Documentation for ${title}: ${spot}`,
            canonical: `${config.publicUrl}${routePath.replace(/\/$/, '')}`,
          },
        };
      }
      default:
        return {
          status: 200,
          head: {
            title: SCREEN_TITLES[match.pattern] ?? SITE_NAME,
            description: HOME_DESCRIPTION,
            canonical: INDEXABLE_SCREENS.has(match.pattern) ? `${config.publicUrl}${match.pattern}` : null,
          },
        };
    }
  }

  const DATA_MARK = '\u0000initial-data\u0000';
  /**
   * The page around the per-request initial data, rendered once per route and catalog snapshot;
   * `root`: server-rendered HTML for #root (a StorePage).
   */
  async function renderParts(
    url: string,
    routePath: string,
    found?: { status: number; head: Head; module?: string; root?: string },
  ) {
    const { status, head, module, root }: { status: number; head: Head; module?: string; root?: string } =
      found ?? (await headFor(routePath));
    let html = (await template(url, module))
      .replace('<!--app-head-->', () => renderHead(head, config))
      .replace(
        '<!--app-data-->',
        `<script type="application/json" id="initial-data">${DATA_MARK}</script>\n    <script type="application/json" id="client-config">${clientConfigJson}</script>`,
      );
    if (root !== undefined) {
      if (!html.includes(ROOT)) throw new Error(`the page shell's template lacks ${ROOT}`);
      // A function, so a `$&` in the page's text stays text.
      html = html.replace(ROOT, () => `<div id="root">${root}</div>`);
    }
    const [before = '', after = ''] = html.split(DATA_MARK);
    return { status, before, after };
  }
  let cache = { snapshot: null as unknown, parts: new Map<string, Awaited<ReturnType<typeof renderParts>>>() };
  async function partsFor(url: string, routePath: string) {
    if (!deps.cache) return renderParts(url, routePath);
    const snapshot = await catalog.snapshot();
    if (cache.snapshot !== snapshot || cache.parts.size > 1000) cache = { snapshot, parts: new Map() };
    let parts = cache.parts.get(routePath);
    if (!parts) {
      parts = await renderParts(url, routePath);
      // Unknown paths are not kept: anyone can invent infinitely many of them.
      if (parts.status === 200) cache.parts.set(routePath, parts);
    }
    return parts;
  }

  const consoleHead: Head = { title: 'Admin — Kitshop', description: HOME_DESCRIPTION, canonical: null };
  let consoleParts: Awaited<ReturnType<typeof renderParts>> | undefined;
  async function consolePartsFor(url: string, routePath: string) {
    const render = () => renderParts(url, routePath, { status: 200, head: consoleHead });
    if (!deps.cache) return render();
    consoleParts ??= await render();
    return consoleParts;
  }

  const routePathOf = (request: FastifyRequest) =>
    (request.url.split('?')[0] ?? '/').slice(config.basePath.length) || '/';

  /** The parts with this request's initial data (path, CSRF token, the signed-in user) between them. */
  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    { status, before, after }: Awaited<ReturnType<typeof renderParts>>,
    user: { id: number; name: string } | null,
    owner: boolean,
  ) {
    const data: InitialData = {
      path: routePathOf(request),
      csrf: reply.generateCsrf(),
      baseUrl: config.publicUrl,
      user: user ? { id: user.id, name: user.name, ...(owner ? { owner: true } : {}) } : {},
    };
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(before + scriptJson(data) + after);
  }
  const isOwner = async (user: { id: number } | null) => (user && deps.isOwner ? deps.isOwner(user.id) : false);

  async function serveShell(request: FastifyRequest, reply: FastifyReply) {
    const routePath = routePathOf(request);
    if (routePath.startsWith('/api/')) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    const consolePath = CONSOLE_PATH.test(routePath);
    const [user, parts] = await Promise.all([request.user(), consolePath ? null : partsFor(request.url, routePath)]);
    const owner = await isOwner(user);
    // The owner console exists for owners only: anyone else gets the ordinary 404.
    const ownerConsole = owner && consolePath;
    if (ownerConsole) reply.header('x-robots-tag', 'noindex');
    const found =
      parts ?? (ownerConsole ? await consolePartsFor(request.url, routePath) : await partsFor(request.url, routePath));
    return send(request, reply, found, user, owner);
  }

  app.get('/*', serveShell);
  app.get('/', serveShell);

  /** A server-rendered page in the shop's layout: the shell with the page in #root (not kept: it is small). */
  const sendPage: SendStorePage = async (request, reply, page: StorePage) => {
    const head: Head = {
      title: page.title,
      description: page.description,
      canonical: page.canonical,
      type: page.type,
      extra: page.head,
    };
    const [user, parts] = await Promise.all([
      request.user(),
      renderParts(request.url, routePathOf(request), {
        status: page.status ?? 200,
        head,
        module: STORE_PAGE_MODULE,
        root: storePageRoot(page.html, config),
      }),
    ]);
    return send(request, reply, parts, user, await isOwner(user));
  };
  return { sendPage };
}
