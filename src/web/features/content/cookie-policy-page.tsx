import { TextPage } from '../../components/text-page.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** Which cookies and browser storage the shop uses and how to manage them (content/legal/cookie-policy.md). */
export function CookiePolicyPage() {
  useScreenTitleAndPageView('/cookie-policy');
  return <TextPage name="cookie-policy" />;
}
