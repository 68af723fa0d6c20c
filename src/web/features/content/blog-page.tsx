import './blog-page.scss';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { HtmlContent } from '../../components/html-content.tsx';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { appUrl, initialData } from '../../lib/initial-data.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { useServerPage } from '../../lib/server-page.ts';

const samePath = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The blog's list and posts: the server renders them (GET /blog, /blog/:slug) and sends them with
 * the page, and this screen shows that HTML between the shop's header and footer. Reached from
 * another screen without a page load (a link, the back button), it asks the server for the page.
 */
export function BlogPage() {
  const { pathname } = useLocation();
  const page = useServerPage(pathname);
  // This document was served for this very path without a page in it: nothing to ask again for.
  const servedHere = samePath(initialData.path, pathname);
  useTitleAndPageView(page?.title);
  useEffect(() => {
    if (!page && !servedHere) window.location.assign(appUrl(pathname));
  }, [page, servedHere, pathname]);
  if (page) return <HtmlContent html={page.html} />;
  return servedHere ? <NotFoundPage /> : null;
}
