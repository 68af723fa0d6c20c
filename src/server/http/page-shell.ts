import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ClientConfig,
  type InitialData,
  PAGE_QUERIES_ID,
  PAGE_QUERY_KEYS,
  type PageQuery,
} from '../../common/page-data.ts';
import { canonicalScreenPath, INDEXABLE_SCREENS, matchScreen, type ScreenPattern } from '../../common/paths.ts';
import { renderedModules, screenOf } from '../../common/screens.ts';
import { HOME_DESCRIPTION, NOT_FOUND_TITLE, SITE_NAME } from '../../common/site.ts';
import type { Config } from '../config.ts';
import { escapeHtml, scriptJson } from '../lib/escape.ts';
import { GzipSplice, PlainSplice } from '../lib/gzip-splice.ts';
import { joined } from '../lib/joined.ts';
import type { PageHead, ScreenHeadBuilders } from '../lib/page-head.ts';
import { shopCookies } from './cookies.ts';
import type { SendStorePage, StorePage } from './html-page.ts';
import { KeptPages, keptPageKey } from './kept-pages.ts';
import { acceptedEncoding, sendCompressed, VARY_ENCODING } from './precompressed.ts';

/**
 * The catalog as the shell reads it (the catalog feature's own `Catalog` fits): the shell keeps the
 * pages it rendered until `snapshot()` answers another object.
 */
export type ShellCatalog = {
  snapshot(): Promise<object>;
  /** The snapshot `snapshot()` would answer, if it is in memory already. */
  loaded(): object | undefined;
};

/** TanStack Query keys and the answers a screen asks for with them (`#page-queries`). */
export type PageQueries = PageQuery[];
/**
 * A screen's answers beyond the catalog's; with `keepUntil` when one of them is a figure kept for a
 * while (ms since the epoch): the page is kept no longer than it, so the page and the call that
 * answers the figure say the same, and the browser's own asking changes nothing on the screen.
 */
export type ScreenQueries = PageQueries | { queries: PageQueries; keepUntil: number };

/**
 * The web app's server renderer (`web/entry-server.tsx`, built to `dist/ssr`): the screen at `url`
 * as HTML for `#root`, rendered with these answers; null when the app would redirect instead.
 */
export type PageRenderer = (input: {
  url: string;
  config: ClientConfig;
  queries: PageQueries;
}) => Promise<string | null>;

/** The shop's share picture, for a page without one of its own. */
export const DEFAULT_SHARE_IMAGE = {
  path: 'share.jpg',
  width: 1200,
  height: 630,
  alt: `${SITE_NAME}: starter kits for developers`,
};

function renderHead(head: PageHead, config: Config): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    `<meta property="og:description" content="${escapeHtml(head.description)}">`,
    `<meta property="og:type" content="${head.type ?? 'website'}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
  ];
  if (head.canonical) {
    tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}">`);
    tags.push(`<meta property="og:url" content="${escapeHtml(head.canonical)}">`);
  } else {
    tags.push('<meta name="robots" content="noindex">');
  }
  // A page without a picture of its own is shared with the shop's (1200x630, src/web/public).
  if (head.image) tags.push(`<meta property="og:image" content="${escapeHtml(head.image)}">`);
  else
    tags.push(
      `<meta property="og:image" content="${escapeHtml(config.publicUrl)}/${DEFAULT_SHARE_IMAGE.path}">`,
      `<meta property="og:image:width" content="${DEFAULT_SHARE_IMAGE.width}">`,
      `<meta property="og:image:height" content="${DEFAULT_SHARE_IMAGE.height}">`,
      `<meta property="og:image:alt" content="${escapeHtml(DEFAULT_SHARE_IMAGE.alt)}">`,
    );
  if (head.jsonLd) tags.push(`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`);
  if (head.extra) tags.push(head.extra);
  return tags.join('\n    ');
}

/** The HTML shell for a URL; `screenModules` name the lazy screen's modules to preload (source paths under src/web). */
export type ShellTemplate = (url: string, screenModules?: readonly string[]) => Promise<string> | string;

/** The owner console's paths (`/admin`, `/admin/orders/x`): a screen for owners, 404 for anyone else. */
const CONSOLE_PATH = /^\/admin(?:\/.*)?$/;

/** The screen that shows a server-rendered page (the blog's) between the app's header and footer. */
const STORE_PAGE_MODULES = ['features/content/blog-page.tsx'];
const ROOT = '<div id="root"></div>';

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
    /** The heads of the screens a feature builds (`head` in screens.ts), and the answers they render with. */
    heads: ScreenHeadBuilders;
    template: ShellTemplate;
    googleEnabled: boolean;
    cache: boolean;
    /** Whether a signed-in user is a shop owner: `owner: true` in the initial data, and /admin exists. */
    isOwner?: (userId: number) => Promise<boolean>;
    /** Renders the public screens into the page; without it the browser renders every screen. */
    render?: PageRenderer;
    /** More answers a screen renders with, beyond the catalog's (the content feature's texts). */
    screenQueries?: (pattern: ScreenPattern) => ScreenQueries | Promise<ScreenQueries>;
    /** Where the rendered pages are kept (a store of its own when absent). */
    keptPages?: KeptPages<ShellPage>;
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
  const notFound: PageHead = { title: NOT_FOUND_TITLE, description: HOME_DESCRIPTION, canonical: null };

  /**
   * What the shell needs to render a route: its status and head, and for a rendered screen its code
   * and answers; for a known screen, its pattern and its canonical path (`canonicalScreenPath`).
   */
  type Found = {
    status: number;
    head: PageHead;
    modules?: readonly string[];
    queries?: PageQueries;
    /** Until when its page may be kept (ScreenQueries). */
    keepUntil?: number;
    rendered: boolean;
    pattern?: ScreenPattern;
    path?: string;
  };

  async function screenFor(routePath: string): Promise<Found> {
    const match = matchScreen(routePath);
    // The not-found page is rendered too (a crawler and a visitor without JavaScript read it), but
    // not at the owner console's paths: whether that is a 404 is for the browser to show (it knows who
    // is signed in, which the kept page does not).
    if (!match) return { status: 404, head: notFound, rendered: !CONSOLE_PATH.test(routePath) };
    const modules = renderedModules(match.pattern);
    const path = canonicalScreenPath(match);
    const answers = (modules && (await deps.screenQueries?.(match.pattern))) ?? [];
    const screen = {
      pattern: match.pattern,
      path,
      modules,
      rendered: modules !== undefined,
      ...(Array.isArray(answers) ? { queries: answers } : answers),
    };
    const { head: headKey, title } = screenOf(match.pattern);
    if (headKey) {
      const built = await deps.heads[headKey]({ params: match.params, path });
      return built.head
        ? { status: 200, head: built.head, ...screen, queries: [...screen.queries, ...built.queries] }
        : { status: 404, head: notFound, ...screen, queries: built.queries };
    }
    return {
      status: 200,
      head: {
        title: title ?? SITE_NAME,
        description: HOME_DESCRIPTION,
        canonical: INDEXABLE_SCREENS.has(match.pattern) ? `${config.publicUrl}${match.pattern}` : null,
      },
      ...screen,
    };
  }

  /** The screen's HTML, or null: then the browser renders it (a failure is logged, never shown). */
  async function renderScreen(url: string, { rendered, queries = [] }: Found): Promise<string | null> {
    if (!rendered || !deps.render) return null;
    try {
      return await deps.render({ url, config: clientConfig, queries });
    } catch (error) {
      app.log.error({ err: error, url }, 'the server could not render this screen; the browser will');
      return null;
    }
  }

  const DATA_MARK = '\u0000initial-data\u0000';
  /**
   * The page around the per-request initial data: the head for the route, the screen rendered into
   * #root with the answers it was rendered with (`#page-queries`), and the preloads of its code.
   */
  async function renderParts(url: string, found: Found): Promise<Parts> {
    const { status, head, modules, queries = [] } = found;
    const [shell, root] = await Promise.all([template(url, modules), renderScreen(url, found)]);
    const pageQueries = queries.length
      ? `\n    <script type="application/json" id="${PAGE_QUERIES_ID}">${scriptJson(queries)}</script>`
      : '';
    let html = shell
      .replace('<!--app-head-->', () => renderHead(head, config))
      .replace(
        '<!--app-data-->',
        () =>
          // The per-request data last: the page before it is compressed as one stream (GzipSplice).
          `<script type="application/json" id="client-config">${clientConfigJson}</script>${pageQueries}\n    <script type="application/json" id="initial-data">${DATA_MARK}</script>`,
      );
    if (root) {
      if (!html.includes(ROOT)) throw new Error(`the page shell's template lacks ${ROOT}`);
      // A function, so a `$&` in the page's text stays text.
      html = html.replace(ROOT, () => `<div id="root">${root}</div>`);
    }
    const [before = '', after = ''] = html.split(DATA_MARK);
    // Kept as bytes: a request sends them as they are, with its own few bytes between, instead of
    // encoding the whole page again each time (that encoding was a third of the page's cost).
    return { status, before: Buffer.from(before), after: Buffer.from(after), kept: false };
  }
  type Parts = ShellPage;
  const keep = (parts: Parts, shared: boolean) => {
    parts.kept = true;
    parts.shared = shared;
    return parts;
  };

  /**
   * Kept per screen and catalog snapshot (kept-pages.ts): a screen that exists, asked for by its
   * canonical path without a query, is the same page for every visitor. Another spelling of its path
   * is sent to the canonical one; with a query (a screen may read it) or for an unknown path (anyone
   * can invent infinitely many) the page is rendered for that request only.
   */
  const kept = deps.keptPages ?? new KeptPages<Parts>();
  /**
   * Where a screen's page is kept: under its path, or once under its pattern for a screen the
   * browser renders whose path names something (`/user-panel/item/:sefId`): its page is the same
   * whatever the path names, and anyone can make up infinitely many such paths. A key of the latter
   * kind starts with no `/`, so no request's URL finds it (`keptPageKey`).
   */
  const keptKeyOf = ({ pattern, path, rendered }: Found) =>
    !rendered && pattern?.includes(':') ? `screen ${pattern}` : path;

  /** The page of a route, or where its screen's canonical path is (another spelling of it was asked for). */
  async function partsFor(url: string, routePath: string): Promise<Parts | { moved: string }> {
    const snapshot = deps.cache ? await catalog.snapshot() : undefined;
    const key = keptPageKey(url, config.basePath);
    const hit = deps.cache ? kept.get(snapshot, key) : undefined;
    if (hit) return hit;
    const found = await screenFor(routePath);
    if (found.status === 200 && found.path !== undefined && found.path !== routePath) {
      const query = url.indexOf('?');
      return { moved: `${config.basePath}${found.path}${query === -1 ? '' : url.slice(query)}` };
    }
    if (!deps.cache) return renderParts(url, found);
    const keptAs = key !== undefined && found.status === 200 ? keptKeyOf(found) : undefined;
    // A page kept once for every path of its screen is under its pattern, which no URL finds.
    const shared = keptAs !== undefined && keptAs !== key ? kept.get(snapshot, keptAs) : undefined;
    if (shared) return shared;
    const parts = await renderParts(url, found);
    if (keptAs !== undefined) kept.set(snapshot, keptAs, keep(parts, keptAs !== key), found.keepUntil);
    return parts;
  }

  const consoleHead: PageHead = { title: 'Admin — Kitshop', description: HOME_DESCRIPTION, canonical: null };
  let consoleParts: Parts | undefined;
  async function consolePartsFor(url: string) {
    const render = () => renderParts(url, { status: 200, head: consoleHead, rendered: false });
    if (!deps.cache) return render();
    // One page for every path of the console, sent to owners only.
    consoleParts ??= keep(await render(), true);
    return consoleParts;
  }

  const routePathOf = (request: { url: string }) =>
    (request.url.split('?')[0] ?? '/').slice(config.basePath.length) || '/';

  /** The page's per-request data: its path, the visitor's CSRF token and who is signed in. */
  function initialData(url: string, csrf: string, user: { id: number; name: string } | null, owner: boolean) {
    const data: InitialData = {
      path: routePathOf({ url }),
      csrf,
      baseUrl: config.publicUrl,
      user: user ? { id: user.id, name: user.name, ...(owner ? { owner: true } : {}) } : {},
    };
    return Buffer.from(scriptJson(data));
  }
  /**
   * A kept page for a visitor without a session, compressed around the place of the CSRF token (the
   * only part of its initial data that differs between such visitors): made once per kept page,
   * instead of the whole JSON per request. A token is letters, digits, `-` and `_`: it needs no
   * escaping there.
   */
  const TOKEN_MARK = 'csrf-token-goes-here';
  function anonymousPage(parts: Parts, url: string): KeptPage {
    if (!parts.anonymous) {
      const [pre = '', post = ''] = initialData(url, TOKEN_MARK, null, false).toString().split(TOKEN_MARK);
      const before = [parts.before, Buffer.from(pre)];
      const after = [Buffer.from(post), parts.after];
      const gzip = new GzipSplice(Buffer.concat(before), Buffer.concat(after));
      parts.anonymous = { status: parts.status, gzip, plain: new PlainSplice(before, after) };
    }
    return parts.anonymous;
  }
  /** A kept page around any visitor's initial data (a signed-in visitor's name, say). */
  const gzipOf = (parts: Parts) => {
    parts.gzip ??= new GzipSplice(parts.before, parts.after);
    return parts.gzip;
  };

  /** The parts with this request's initial data (path, CSRF token, the signed-in user) between them. */
  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    parts: Parts,
    user: { id: number; name: string } | null,
    owner: boolean,
  ) {
    const csrf = reply.csrfToken();
    reply.status(parts.status).headers(PAGE_HEADERS);
    if (parts.kept && acceptedEncoding(request, ['gzip'])) {
      reply.header('content-encoding', 'gzip');
      // Without a user, the page compressed once around the token fits, unless other paths share the
      // page: the path is in the initial data.
      if (!user && !parts.shared) return reply.send(anonymousPage(parts, request.url).gzip.with(csrf));
      return reply.send(gzipOf(parts).with(initialData(request.url, csrf, user, owner)));
    }
    if (parts.kept && !user && !parts.shared && !acceptedEncoding(request)) {
      // A client that takes no compression (many crawlers and link previews): the kept bytes as they
      // are, around its token.
      return reply.send(joined(anonymousPage(parts, request.url).plain.pieces(csrf)));
    }
    const middle = initialData(request.url, csrf, user, owner);
    // A page rendered for this request only is compressed now, if at all.
    return sendCompressed(request, reply, Buffer.concat([parts.before, middle, parts.after]));
  }
  const isOwner = async (user: { id: number } | null) => (user && deps.isOwner ? deps.isOwner(user.id) : false);

  /**
   * The kept page of a visitor without a session, when it can be sent at once: the catalog is in
   * memory and the page was kept from that snapshot. Most visits of a public page are this; they
   * skip the waits of the general case below.
   */
  function keptForAnyone(request: FastifyRequest): Parts | undefined {
    return request.sessionToken() ? undefined : keptFromLoaded(request.url);
  }
  function keptFromLoaded(url: string): Parts | undefined {
    if (!deps.cache) return undefined;
    const snapshot = catalog.loaded();
    return snapshot && kept.get(snapshot, keptPageKey(url, config.basePath));
  }

  function serveShell(request: FastifyRequest, reply: FastifyReply) {
    const kept = keptForAnyone(request);
    return kept ? send(request, reply, kept, null, false) : serveAnyShell(request, reply);
  }

  async function serveAnyShell(request: FastifyRequest, reply: FastifyReply) {
    const routePath = routePathOf(request);
    if (routePath.startsWith('/api/')) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    const consolePath = CONSOLE_PATH.test(routePath);
    const [user, parts] = await Promise.all([request.user(), consolePath ? null : partsFor(request.url, routePath)]);
    if (parts && 'moved' in parts) return reply.redirect(parts.moved, 301);
    const owner = await isOwner(user);
    // The owner console exists for owners only: anyone else gets the ordinary 404 (no screen: never moved).
    const ownerConsole = owner && consolePath;
    if (ownerConsole) reply.header('x-robots-tag', 'noindex');
    const found = parts ?? (ownerConsole ? await consolePartsFor(request.url) : await partsFor(request.url, routePath));
    if ('moved' in found) return reply.redirect(found.moved, 301);
    return send(request, reply, found, user, owner);
  }

  // The shell compresses its own answers (a kept page once, gzip around each visitor's data), so
  // app.ts's on-the-fly compression and its two hooks per request stay off these routes, as does its
  // request-body decompression (a GET has no body).
  const route = { compress: false, decompress: false } as const;
  app.get('/*', route, serveShell);
  app.get('/', route, serveShell);

  /**
   * A server-rendered page in the shop's layout (the blog's): the app's blog screen shows its HTML,
   * rendered here like any public screen (not kept: it is small, and the blog keeps its own posts).
   */
  const sendPage: SendStorePage = async (request, reply, page: StorePage) => {
    const head: PageHead = {
      title: page.title,
      description: page.description,
      canonical: page.canonical,
      type: page.type,
      extra: page.head,
    };
    const [user, parts] = await Promise.all([
      request.user(),
      renderParts(request.url, {
        status: page.status ?? 200,
        head,
        modules: STORE_PAGE_MODULES,
        queries: [[PAGE_QUERY_KEYS.storePage(routePathOf(request)), { title: page.title, html: page.html }]],
        rendered: true,
      }),
    ]);
    return send(request, reply, parts, user, await isOwner(user));
  };
  return { sendPage };
}

/**
 * A page of the shell around the place of its per-request data, as it is kept (`KeptPages`): once
 * kept, it is also compressed once (`gzip`), and, when no other path shares it, once more around
 * the place of an anonymous visitor's CSRF token (`anonymous`).
 */
export type ShellPage = {
  status: number;
  before: Buffer;
  after: Buffer;
  kept: boolean;
  /** Kept once for every path of its screen: the initial data (which holds the path) is never kept with it. */
  shared?: boolean;
  gzip?: GzipSplice;
  anonymous?: KeptPage;
};

/** What every page the shell sends says besides its body (and its encoding, when compressed). */
export const PAGE_HEADERS = {
  'cache-control': 'no-store',
  vary: `Cookie, ${VARY_ENCODING}`,
  'content-type': 'text/html; charset=utf-8',
} as const;

/**
 * A kept page as a visitor without a session gets it: its status, and its bytes around the place of
 * the visitor's CSRF token (the only part of its initial data that differs between such visitors),
 * so `gzip.pieces(token)` are its gzip and `plain.pieces(token)` its bytes as they are (for a
 * client that asks for no compression, as many crawlers and link previews do). Made once per kept
 * page and catalog snapshot; the plain pieces are the kept parts themselves, not a copy.
 */
export type KeptPage = { readonly status: number; readonly gzip: GzipSplice; readonly plain: PlainSplice };
