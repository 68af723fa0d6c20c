import './docs-page.scss';
import { Link, NavLink, useParams } from 'react-router';
import { docsTitle } from '../../../common/site.ts';
import { HtmlContent } from '../../components/html-content.tsx';
import { LoadFailedPage, NotFoundPage } from '../../components/not-found-page.tsx';
import { ApiError } from '../../lib/api.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { useKitDocs } from './catalog-api.ts';

/** A kit's public documentation: its pages in a side navigation, one page at a time. */
export function DocsPage() {
  const { sefId = '', page: slug } = useParams();
  const { data: docs, error, isPending } = useKitDocs(sefId);
  const page = docs ? (slug ? docs.pages.find((p) => p.slug === slug) : docs.pages[0]) : undefined;
  useTitleAndPageView(docs && page ? docsTitle(docs.title) : undefined);

  // null: the server rendered this address as a kit without documentation (it answers 404 for it).
  if ((error instanceof ApiError && error.status === 404) || docs === null || (docs && !page)) return <NotFoundPage />;
  if (isPending) return <div className="container section" aria-busy="true" />;
  if (!docs || !page) {
    return (
      <LoadFailedPage>We could not load this documentation right now. Please try again in a moment.</LoadFailedPage>
    );
  }
  const index = docs.pages.indexOf(page);
  const previous = docs.pages[index - 1];
  const next = docs.pages[index + 1];
  return (
    <div className="docs container section">
      <nav aria-label="Breadcrumb" className="docs-breadcrumb">
        <Link to={`/product/${docs.sef_id}`}>{docs.title}</Link> <span aria-hidden="true">/</span> Documentation
      </nav>
      <div className="row g-4">
        <aside className="col-12 col-lg-3">
          <nav aria-label="Documentation" className="docs-nav">
            <p className="docs-nav-title">{docs.title}</p>
            <ul className="list-unstyled">
              {docs.pages.map((p, i) => (
                <li key={p.slug}>
                  <NavLink
                    to={i === 0 ? `/docs/${docs.sef_id}` : `/docs/${docs.sef_id}/${p.slug}`}
                    end
                    className={() => (p === page ? 'active' : undefined)}
                    aria-current={p === page ? 'page' : undefined}
                  >
                    {p.title}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <div className="col-12 col-lg-9">
          <HtmlContent html={page.html} className="prose docs-content" />
          <nav className="docs-pager d-flex justify-content-between gap-3" aria-label="Pages">
            {previous ? (
              <Link to={index - 1 === 0 ? `/docs/${docs.sef_id}` : `/docs/${docs.sef_id}/${previous.slug}`} rel="prev">
                ← {previous.title}
              </Link>
            ) : (
              <span />
            )}
            {next && (
              <Link to={`/docs/${docs.sef_id}/${next.slug}`} rel="next">
                {next.title} →
              </Link>
            )}
          </nav>
        </div>
      </div>
    </div>
  );
}
