import './legal-layout.scss';
import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'react-router';
import { LEGAL_EFFECTIVE_DATE } from '../../common/constants.ts';
import { useCurrentSection } from '../lib/use-current-section.ts';

/** One part of a static page: its heading becomes an h2 and an entry in the table of contents. */
export type PageSection = { id: string; title: string; content: ReactNode };

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
 * The frame of the static pages (about and the legal texts): a heading band with the title,
 * the effective date of legal texts and a short lead; then the sections in a readable column, with a
 * table of contents beside them on wide screens.
 */
export function LegalLayout({
  eyebrow = 'Legal',
  title,
  lead,
  effectiveDate = true,
  sections,
  footer,
}: {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  /** Legal texts state their effective date under the title. */
  effectiveDate?: boolean;
  sections: PageSection[];
  /** Shown after the last section (a call to action, a related link). */
  footer?: ReactNode;
}) {
  useScrollToHash();
  const current = useCurrentSection(sections.map((s) => s.id));
  return (
    <div className="static-page">
      <header className="static-hero">
        <div className="container">
          <p className="eyebrow">{eyebrow}</p>
          <h1 className="static-title">{title}</h1>
          {effectiveDate && <p className="static-effective">{`Effective Date: ${LEGAL_EFFECTIVE_DATE}`}</p>}
          {lead && <div className="static-lead">{lead}</div>}
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
            <div className="prose static-prose">
              {sections.map((section) => (
                <section key={section.id}>
                  <h2 id={section.id}>{section.title}</h2>
                  {section.content}
                </section>
              ))}
            </div>
            {footer}
          </div>
        </div>
      </div>
    </div>
  );
}
