import { useMemo } from 'react';
import { longDate } from '../../../common/dates.ts';
import { HtmlContent } from '../../components/html-content.tsx';
import { LoadFailed, Loading } from '../../components/load-states.tsx';
import { useContentPage } from '../../lib/content-api.ts';
import { demoteHeadings, splitContentHtml } from '../../lib/content-html.ts';
import { useRouterLinks } from '../../lib/router-links.ts';

/**
 * The licence as running text for the item page's "View Full Licence" dialog: the effective date,
 * then each section of content/legal/licence.md (the /licence page's very text) under an h3.
 */
export function LicenceText() {
  const { data: page, isPending, refetch } = useContentPage('licence');
  const body = useMemo(() => (page ? demoteHeadings(splitContentHtml(page.html).body) : ''), [page]);
  const links = useRouterLinks();
  if (isPending) return <Loading className="licence-loading">Loading the licence…</Loading>;
  if (!page) return <LoadFailed onRetry={() => void refetch()}>We could not load the licence right now.</LoadFailed>;
  return (
    <div className="licence-text" ref={links}>
      {page.effective_date && <p className="licence-effective">{`Effective Date: ${longDate(page.effective_date)}`}</p>}
      <HtmlContent html={body} />
    </div>
  );
}
