import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientConfig, InitialData } from '../../common/page-data.ts';
import { matchScreen } from '../../common/paths.ts';
import {
  docsTitle,
  HOME_DESCRIPTION,
  HOME_TITLE,
  INDEXABLE_SCREENS,
  NOT_FOUND_TITLE,
  SCREEN_TITLES,
  SITE_NAME,
} from '../../common/site.ts';
import type { Config } from '../config.ts';
import { escapeHtml } from '../lib/escape.ts';
import type { Catalog, CatalogEntry } from '../modules/catalog/catalog.service.ts';
import { shopCookies } from './cookies.ts';

/** JSON that is safe inside a <script> element: no "</script>", no HTML comment openers. */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

type Head = {
  title: string;
  description: string;
  canonical: string | null;
  image?: string;
  jsonLd?: object;
  type?: string;
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
  void config;
  return tags.join('\n    ');
}

function productHead(entry: CatalogEntry, config: Config): Head {
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

/** Lazy screens whose code the shell preloads, so it loads in parallel with the entry script. */
const SCREEN_MODULES: Record<string, string> = { '/product/:sefId': 'features/catalog/product-page.tsx' };

/**
 * Serves every screen of the single-page app: the same HTML shell with the head for that route
 * (title, description, canonical, Open Graph, JSON-LD) and the initial data the app boots from.
 * Known screens answer 200; unknown routes and unknown kits answer 404 with the same shell, whose
 * app then shows the not-found page.
 */
export function registerPageShell(
  app: FastifyInstance,
  deps: { config: Config; catalog: Catalog; template: ShellTemplate; googleEnabled: boolean; cache: boolean },
): void {
  const { config, catalog, template } = deps;
  const cookies = shopCookies(config);
  const clientConfig: ClientConfig = {
    basePath: config.basePath,
    supportEmail: config.supportEmail,
    gaMeasurementId: config.gaMeasurementId ?? null,
    googleEnabled: deps.googleEnabled,
    payment: {
      provider: config.paymentProvider,
      clientToken: config.paymentProvider === 'paddle' ? (config.paddle.clientToken ?? null) : null,
      environment: config.paddle.environment,
    },
    testPayments: config.production && config.paymentProvider === 'sandbox',
    cookies: { session: cookies.session, csrf: cookies.csrf, oidc: cookies.oidc },
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
        return {
          status: 200,
          head: {
            title: docsTitle(entry.kit.title),
            description: `Documentation for ${entry.kit.title}: ${entry.kit.spot}`,
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
  /** The page around the per-request initial data, rendered once per route and catalog snapshot. */
  async function renderParts(url: string, routePath: string) {
    const { status, head, module } = await headFor(routePath);
    const html = (await template(url, module))
      .replace('<!--app-head-->', renderHead(head, config))
      .replace(
        '<!--app-data-->',
        `<script type="application/json" id="initial-data">${DATA_MARK}</script>\n    <script type="application/json" id="client-config">${clientConfigJson}</script>`,
      );
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

  async function serveShell(request: FastifyRequest, reply: FastifyReply) {
    const pathname = request.url.split('?')[0] ?? '/';
    const routePath = pathname.slice(config.basePath.length) || '/';
    if (routePath.startsWith('/api/')) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    const [{ status, before, after }, user] = await Promise.all([partsFor(request.url, routePath), request.user()]);
    const data: InitialData = {
      path: routePath,
      csrf: reply.generateCsrf(),
      baseUrl: config.publicUrl,
      user: user ? { id: user.id, name: user.name } : {},
    };
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(before + scriptJson(data) + after);
  }

  app.get('/*', serveShell);
  app.get('/', serveShell);
}
