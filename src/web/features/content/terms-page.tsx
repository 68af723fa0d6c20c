import { TextPage } from '../../components/text-page.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** The terms of using the shop and buying kits (content/legal/terms-and-conditions.md). */
export function TermsPage() {
  useScreenTitleAndPageView('/terms-and-conditions');
  return <TextPage name="terms-and-conditions" />;
}
