import type { ReactNode } from 'react';
import type { ContentPageName } from '../../common/schemas/content.ts';
import { useContentPage } from '../lib/content-api.ts';
import { LegalLayout } from './legal-layout.tsx';
import { LoadFailed, Loading } from './load-states.tsx';

/** A text page (about, a legal text, the licence): its content/legal/<name>.md in the static pages' frame. */
export function TextPage({ name, eyebrow, footer }: { name: ContentPageName; eyebrow?: string; footer?: ReactNode }) {
  const { data: page, isPending, refetch } = useContentPage(name);
  if (isPending) return <Loading className="container section">Loading…</Loading>;
  if (!page) {
    return (
      <div className="container section">
        <LoadFailed onRetry={() => void refetch()}>We could not load this page right now.</LoadFailed>
      </div>
    );
  }
  return <LegalLayout eyebrow={eyebrow} page={page} footer={footer} />;
}
