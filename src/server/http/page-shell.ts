import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchScreen } from '../../common/paths.ts';
import { docsTitle, HOME_DESCRIPTION, HOME_TITLE, NOT_FOUND_TITLE, SITE_NAME } from '../../common/site.ts';
import type { Config } from '../config.ts';
import type { Catalog, CatalogEntry } from '../modules/catalog/catalog.service.ts';

/** What the browser reads from `<script type="application/json" id="client-config">`. */
export type ClientConfig = {
  basePath: string;
  supportEmail: string;
  gaMeasurementId: string | null;
  googleEnabled: boolean;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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

export type ShellTemplate = (url: string) => Promise<string> | string;

/**
 * Serves every screen of the single-page app: the same HTML shell with the head for that route
 * (title, description, canonical, Open Graph, JSON-LD) and the initial data the app boots from.
 * Known screens answer 200; unknown routes and unknown kits answer 404 with the same shell, whose
 * app then shows the not-found page.
 */
export function registerPageShell(
  app: FastifyInstance,
  deps: { config: Config; catalog: Catalog; template: ShellTemplate; googleEnabled: boolean },
): void {
  const { config, catalog, template } = deps;
  const clientConfig: ClientConfig = {
    basePath: config.basePath,
    supportEmail: config.supportEmail,
    gaMeasurementId: config.gaMeasurementId ?? null,
    googleEnabled: deps.googleEnabled,
  };
  const clientConfigJson = scriptJson(clientConfig);
  const notFound: Head = { title: NOT_FOUND_TITLE, description: HOME_DESCRIPTION, canonical: null };

  async function headFor(routePath: string): Promise<{ status: number; head: Head }> {
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
        return entry ? { status: 200, head: productHead(entry, config) } : { status: 404, head: notFound };
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
    }
  }

  async function serveShell(request: FastifyRequest, reply: FastifyReply) {
    const pathname = request.url.split('?')[0] ?? '/';
    const routePath = pathname.slice(config.basePath.length) || '/';
    if (routePath.startsWith('/api/')) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    const [{ status, head }, user] = await Promise.all([headFor(routePath), request.user()]);
    const data = {
      path: routePath,
      csrf: reply.generateCsrf(),
      baseUrl: config.publicUrl,
      user: user ? { id: user.id, name: user.name } : {},
    };
    const html = (await template(request.url))
      .replace('<!--app-head-->', renderHead(head, config))
      .replace(
        '<!--app-data-->',
        `<script type="application/json" id="initial-data">${scriptJson(data)}</script>\n    <script type="application/json" id="client-config">${clientConfigJson}</script>`,
      );
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(html);
  }

  app.get('/*', serveShell);
  app.get('/', serveShell);
}
