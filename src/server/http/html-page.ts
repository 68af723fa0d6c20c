import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FOOTER_YEAR } from '../../common/constants.ts';
import { SITE_NAME } from '../../common/site.ts';
import { escapeHtml } from '../lib/escape.ts';

/**
 * A server-rendered page shown inside the shop's own layout (its header with the cart and the
 * account, its footer with the newsletter): the page shell puts `html` where the app shows a
 * screen, and the app keeps it there. `html` is trusted HTML built by the caller.
 */
export type StorePage = {
  status?: number;
  title: string;
  description: string;
  /** null: not indexed (`noindex`). */
  canonical: string | null;
  /** Open Graph type: `article` for a post, `website` (the default) otherwise. */
  type?: string;
  /** More head tags (trusted HTML), such as a feed's `<link rel="alternate">`. */
  head?: string;
  html: string;
};

/** Sends a StorePage (the page shell's `sendPage`, which app.ts hands to the features that need it). */
export type SendStorePage = (request: FastifyRequest, reply: FastifyReply, page: StorePage) => Promise<FastifyReply>;

/**
 * A small server-rendered page in the shop's colours, for what lives outside the single-page app
 * (the newsletter's unsubscribe page). `body` is trusted HTML built by the caller.
 */
export function htmlPage(options: {
  basePath: string;
  title: string;
  description?: string;
  canonical?: string;
  body: string;
  head?: string;
}): string {
  const { basePath } = options;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
${options.description ? `<meta name="description" content="${escapeHtml(options.description)}">` : ''}
${options.canonical ? `<link rel="canonical" href="${escapeHtml(options.canonical)}">` : '<meta name="robots" content="noindex">'}
<link rel="icon" href="${basePath}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${basePath}/pages.css">
${options.head ?? ''}
</head>
<body>
<header class="bar"><div class="wrap"><a class="brand" href="${basePath}/"><span>K</span>${SITE_NAME}</a>
<nav aria-label="Site"><a href="${basePath}/blog">Blog</a><a href="${basePath}/#kits">Kits</a><a href="${basePath}/contact">Contact</a></nav></div></header>
<main class="wrap">${options.body}</main>
<footer class="foot"><div class="wrap">© ${FOOTER_YEAR} ${SITE_NAME}. <a href="${basePath}/privacy-policy">Privacy Policy</a> · <a href="${basePath}/terms-and-conditions">Terms and Conditions</a></div></footer>
</body>
</html>`;
}

const PAGES_CSS = `*{box-sizing:border-box}body{margin:0;font:17px/1.65 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1e293b;background:#fff}
a{color:#4f46e5}.wrap{max-width:760px;margin:0 auto;padding:0 20px}.bar{background:#0f172a}.bar .wrap{display:flex;justify-content:space-between;align-items:center;height:58px;max-width:1100px}
.brand{color:#fff;font-weight:800;text-decoration:none;display:flex;gap:8px;align-items:center}.brand span{display:inline-grid;place-items:center;width:30px;height:30px;border-radius:8px;background:#4f46e5}
.bar nav a{color:#e2e8f0;text-decoration:none;margin-left:18px}main{padding:40px 20px 64px;min-height:70vh}h1{font-size:2.1rem;line-height:1.2;letter-spacing:-.02em;margin:0 0 12px}
h2{margin-top:2rem}.meta{color:#64748b;margin:0 0 28px}pre{background:#0f172a;color:#e2e8f0;padding:16px;border-radius:10px;overflow:auto;font-size:14px}
code{font-size:.92em}:not(pre)>code{color:#be185d}
.button{display:inline-block;background:#4f46e5;color:#fff;border:0;border-radius:8px;padding:10px 20px;font-size:16px;cursor:pointer;text-decoration:none}
.notice{background:#f1f5f9;border-radius:10px;padding:18px 20px}.foot{border-top:1px solid #e2e8f0;color:#64748b;font-size:14px;padding:20px 0}img{max-width:100%}`;

/** The stylesheet every htmlPage links to. */
export function registerHtmlPageAssets(app: FastifyInstance): void {
  app.get('/pages.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PAGES_CSS),
  );
}
