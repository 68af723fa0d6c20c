import type { FastifyInstance } from 'fastify';
import { INDEXABLE_SCREENS } from '../../../common/paths.ts';
import { type ScreenPattern, screenOf } from '../../../common/screens.ts';
import type { Config } from '../../config.ts';
import { escapeHtml } from '../../lib/escape.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import type { BlogPost } from './blog.service.ts';

/**
 * Pages outside the catalog that search engines should find: every indexed screen of the table of
 * screens without a parameter, in the shop's own layout (the about, contact, support, licence and
 * legal pages; not the sign-in and sign-up forms), and the blog.
 */
const STATIC_PAGES = [
  ...([...INDEXABLE_SCREENS] as ScreenPattern[]).filter(
    (pattern) => pattern !== '/' && !pattern.includes(':') && screenOf(pattern).layout === undefined,
  ),
  '/blog',
];

/** `/sitemap.xml` (home, every kit page and documentation page) and `/robots.txt`. */
export function registerSeoRoutes(
  app: FastifyInstance,
  deps: { config: Config; catalog: Catalog; posts: BlogPost[] },
): void {
  const { config, catalog, posts } = deps;
  app.get('/sitemap.xml', async (_request, reply) => {
    const { bySef } = await catalog.snapshot();
    // `lastmod` where a page has a date of its own: a kit's pages its version's release, a post its day,
    // the home page the newest of the kits it lists.
    const kits = [...bySef.values()].map(({ kit }) => kit);
    const newest = kits.reduce<string | null>(
      (day, kit) => (kit.releasedOn && (!day || kit.releasedOn > day) ? kit.releasedOn : day),
      null,
    );
    const urls: { loc: string; lastmod?: string | null }[] = [{ loc: `${config.publicUrl}/`, lastmod: newest }];
    for (const kit of kits) {
      urls.push({ loc: `${config.publicUrl}/product/${kit.sefId}`, lastmod: kit.releasedOn });
      if (kit.docs.length > 0) urls.push({ loc: `${config.publicUrl}/docs/${kit.sefId}`, lastmod: kit.releasedOn });
    }
    for (const page of STATIC_PAGES) urls.push({ loc: `${config.publicUrl}${page}` });
    for (const post of posts) urls.push({ loc: `${config.publicUrl}/blog/${post.slug}`, lastmod: post.date });
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
      .map(
        ({ loc, lastmod }) =>
          `  <url><loc>${escapeHtml(loc)}</loc>${lastmod ? `<lastmod>${escapeHtml(lastmod)}</lastmod>` : ''}</url>`,
      )
      .join('\n')}\n</urlset>\n`;
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
  });

  app.get('/robots.txt', async (_request, reply) => {
    const base = config.basePath;
    const body = [
      'User-agent: *',
      `Disallow: ${base}/api/`,
      `Disallow: ${base}/user-panel`,
      `Disallow: ${base}/checkout`,
      `Allow: ${base}/`,
      '',
      `Sitemap: ${config.publicUrl}/sitemap.xml`,
      '',
    ].join('\n');
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(body);
  });
}
