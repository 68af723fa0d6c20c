import './blog-teaser.scss';
import { useQuery } from '@tanstack/react-query';
import { appUrl } from '../lib/initial-data.ts';
import { isSameOrigin, isTeaserFragment } from './blog-teaser-html.ts';
import { Icon } from './icon.tsx';

/**
 * GET /blog/latest.php: the latest post's teaser as an HTML fragment, sanitised here by the server's
 * own sanitiser (src/common, loaded only now, so it stays out of the first load). Null when there
 * is nothing to show: any answer but a 200 with a fragment, or any failure, only worth a warning.
 */
async function loadBlogTeaser(): Promise<string | null> {
  try {
    const response = await fetch(appUrl('/blog/latest.php'), {
      headers: { Accept: 'text/html' },
      credentials: 'same-origin',
    });
    if (response.status !== 200) return null;
    const body = await response.text();
    if (!isTeaserFragment(body)) return null;
    const { sanitizeHtml } = await import('../../common/html-sanitizer.ts');
    const template = document.createElement('template');
    template.innerHTML = sanitizeHtml(body);
    const fragment = template.content;
    for (const img of fragment.querySelectorAll('img')) {
      if (!isSameOrigin(img.getAttribute('src') ?? '', window.location.href)) img.remove();
      else img.setAttribute('loading', 'lazy');
    }
    const holder = document.createElement('div');
    holder.append(fragment);
    return holder.textContent?.trim() ? holder.innerHTML : null;
  } catch (error) {
    console.warn('Blog teaser not shown:', error);
    return null;
  }
}

/** 'From the blog': the latest post's teaser at the end of the home page; nothing at all without one. */
export function BlogTeaser() {
  const { data: html } = useQuery({
    queryKey: ['blog-teaser'],
    queryFn: loadBlogTeaser,
    staleTime: 10 * 60_000,
    retry: false,
  });
  if (!html) return null;
  return (
    <section className="section blog-teaser-section" aria-labelledby="blog-teaser-title">
      <div className="container narrow">
        <h2 id="blog-teaser-title" className="section-title">
          From the blog
        </h2>
        <div className="blog-teaser-body" dangerouslySetInnerHTML={{ __html: html }} />
        <p className="blog-all-posts">
          <a href={appUrl('/blog')}>
            All posts <Icon name="arrow" size={18} />
          </a>
        </p>
      </div>
    </section>
  );
}
