import { TextPage } from '../../components/text-page.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** /licence: the full licence every kit is sold under (content/legal/licence.md), the same text as the item page's dialog. */
export function LicencePage() {
  useScreenTitleAndPageView('/licence');
  return <TextPage name="licence" />;
}
