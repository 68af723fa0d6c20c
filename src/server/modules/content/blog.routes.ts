import type { FastifyInstance } from 'fastify';
import { longDate } from '../../../common/dates.ts';
import type { Config } from '../../config.ts';
import type { SendStorePage } from '../../http/html-page.ts';
import { escapeHtml } from '../../lib/escape.ts';
import type { BlogPost } from './blog.service.ts';

/**
 * The blog, rendered by the server: the list and each post (sent through `sendPage`, in the shop's
 * layout: the app shows the server's HTML between its header and footer, and readers without
 * JavaScript and crawlers get the whole text), the RSS feed, and the latest post's teaser
 * fragment the home page inserts.
 */
export function registerBlogRoutes(
  app: FastifyInstance,
  deps: { config: Config; posts: BlogPost[]; sendPage: SendStorePage },
): void {
  const { config, posts, sendPage } = deps;
  const base = config.basePath;
  const postUrl = (p: BlogPost) => `${base}/blog/${p.slug}`;
  /** The blog's column inside the shop's layout (styled by the web app's blog screen). */
  const column = (html: string) => `<div class="container blog-page">${html}</div>`;

  app.get('/blog', async (request, reply) => {
    const list = posts
      .map(
        (p) =>
          `<li><h2><a href="${postUrl(p)}">${escapeHtml(p.title)}</a></h2><time datetime="${p.date}" class="meta">${longDate(p.date)}</time><p>${escapeHtml(p.excerpt)}</p></li>`,
      )
      .join('\n');
    const body = `<h1>Blog</h1><p class="meta">How the kits are built, what changed in them, and how to get the most out of them. <a href="${base}/blog/feed.xml">RSS feed</a></p>
${posts.length ? `<ul class="post-list">${list}</ul>` : '<p class="notice">No posts yet.</p>'}`;
    return sendPage(request, reply, {
      title: 'Blog — Kitshop',
      description: 'Articles about building and shipping with Kitshop starter kits.',
      canonical: `${config.publicUrl}/blog`,
      html: column(body),
      head: `<link rel="alternate" type="application/rss+xml" title="Kitshop blog" href="${base}/blog/feed.xml">`,
    });
  });

  app.get('/blog/feed.xml', async (_request, reply) => {
    const items = posts
      .map(
        (p) => `  <item>
    <title>${escapeHtml(p.title)}</title>
    <link>${escapeHtml(`${config.publicUrl}/blog/${p.slug}`)}</link>
    <guid isPermaLink="true">${escapeHtml(`${config.publicUrl}/blog/${p.slug}`)}</guid>
    <pubDate>${new Date(`${p.date}T09:00:00Z`).toUTCString()}</pubDate>
    <description>${escapeHtml(p.excerpt)}</description>
  </item>`,
      )
      .join('\n');
    return reply
      .type('application/rss+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=600')
      .send(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>Kitshop blog</title>
  <link>${escapeHtml(`${config.publicUrl}/blog`)}</link>
  <atom:link href="${escapeHtml(`${config.publicUrl}/blog/feed.xml`)}" rel="self" type="application/rss+xml"/>
  <description>How the Kitshop starter kits are built, updated and used.</description>
  <language>en</language>
${items}
</channel>
</rss>
`);
  });

  // The spec's call: an HTML fragment of the latest post for the home page.
  app.get('/blog/latest.php', async (_request, reply) => {
    const p = posts[0];
    reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=300');
    if (!p) return reply.status(204).send();
    return reply.send(
      `<article class="blog-teaser"><h3><a href="${postUrl(p)}">${escapeHtml(p.title)}</a></h3><time datetime="${p.date}">${longDate(p.date)}</time><p>${escapeHtml(p.excerpt)}</p><a href="${postUrl(p)}">Read “${escapeHtml(p.title)}”</a></article>`,
    );
  });

  app.get('/blog/:slug', async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const p = posts.find((post) => post.slug === slug);
    if (!p) {
      return sendPage(request, reply, {
        status: 404,
        title: 'Post not found — Kitshop',
        description: 'This post does not exist.',
        canonical: null,
        html: column(`<h1>404</h1><p>This post does not exist. <a href="${base}/blog">All posts</a></p>`),
      });
    }
    return sendPage(request, reply, {
      title: `${p.title} — Kitshop blog`,
      description: p.excerpt,
      canonical: `${config.publicUrl}/blog/${p.slug}`,
      type: 'article',
      html: column(
        `<article><h1>${escapeHtml(p.title)}</h1><p class="meta"><time datetime="${p.date}">${longDate(p.date)}</time></p><div class="prose">${p.html}</div></article><p class="blog-back"><a href="${base}/blog">← All posts</a></p>`,
      ),
    });
  });
}
