import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { escapeHtml } from '../../lib/escape.ts';
import type { Catalog } from '../catalog/catalog.service.ts';
import type { BlogPost } from './blog.service.ts';

/** Pages outside the catalog that search engines should find. */
const STATIC_PAGES = [
  '/about',
  '/contact',
  '/blog',
  '/privacy-policy',
  '/terms-and-conditions',
  '/refund-policy',
  '/cookie-policy',
];

/** `/sitemap.xml` (home, every kit page and documentation page) and `/robots.txt`. */
export function registerSeoRoutes(
  app: FastifyInstance,
  deps: { config: Config; catalog: Catalog; posts: BlogPost[] },
): void {
  const { config, catalog, posts } = deps;
  app.get('/sitemap.xml', async (_request, reply) => {
    const { bySef } = await catalog.snapshot();
    const urls = [`${config.publicUrl}/`];
    for (const { kit } of bySef.values()) {
      urls.push(`${config.publicUrl}/product/${kit.sefId}`);
      if (kit.docs.length > 0) urls.push(`${config.publicUrl}/docs/${kit.sefId}`);
    }
    for (const page of STATIC_PAGES) urls.push(`${config.publicUrl}${page}`);
    for (const post of posts) urls.push(`${config.publicUrl}/blog/${post.slug}`);
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
      .map((u) => `  <url><loc>${escapeHtml(u)}</loc></url>`)
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
