import './legal-layout.scss';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { longDate } from '../../common/dates.ts';
import type { ContentPage } from '../../common/schemas/content.ts';
import { splitContentHtml, withIcons } from '../lib/content-html.ts';
import { useHydrated } from '../lib/hydration.ts';
import { useRouterLinks } from '../lib/router-links.ts';
import { useCurrentSection } from '../lib/use-current-section.ts';
import { HtmlContent } from './html-content.tsx';

/** A page opened at `#section` shows that section once its content is there. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    document.getElementById(id)?.scrollIntoView();
  }, [hash]);
}

/**
 * The frame of the static pages (about and the legal texts, content/legal/*.md rendered by the
 * server): a heading band with the title, the effective date of legal texts and the text's lead;
 * then its sections in a readable column, with a table of contents beside them on wide screens.
 */
export function LegalLayout({
  eyebrow = 'Legal',
  page,
  footer,
}: {
  eyebrow?: string;
  page: ContentPage;
  /** Shown after the last section (a call to action, a related link). */
  footer?: ReactNode;
}) {
  const { lead, body, sections } = useMemo(() => splitContentHtml(withIcons(page.html)), [page.html]);
  const links = useRouterLinks();
  // Marks the text as live: its links move within the app from then on (before, they load the
  // page as plain links do).
  const hydrated = useHydrated();
  useScrollToHash();
  const current = useCurrentSection(sections.map((s) => s.id));
  return (
    <div className="static-page" ref={links} data-hydrated={hydrated || undefined}>
      <header className="static-hero">
        <div className="container">
          <p className="eyebrow">{eyebrow}</p>
          <h1 className="static-title">{page.title}</h1>
          {page.effective_date && (
            <p className="static-effective">{`Effective Date: ${longDate(page.effective_date)}`}</p>
          )}
          {lead && <HtmlContent html={lead} className="static-lead" />}
        </div>
      </header>
      <div className="container static-body">
        <div className="row g-4 g-lg-5">
          <aside className="col-lg-4 col-xl-3 d-none d-lg-block">
            <nav className="static-toc" aria-label="On this page">
              <p className="static-toc-title">On this page</p>
              <ol className="list-unstyled">
                {sections.map((section) => (
                  <li key={section.id}>
                    <a
                      href={`#${section.id}`}
                      className={current === section.id ? 'active' : undefined}
                      aria-current={current === section.id ? 'location' : undefined}
                    >
                      {section.title}
                    </a>
                  </li>
                ))}
              </ol>
            </nav>
          </aside>
          <div className="col-12 col-lg-8 col-xl-9">
            <HtmlContent html={body} className="prose static-prose" />
            {footer}
          </div>
        </div>
      </div>
    </div>
  );
}
