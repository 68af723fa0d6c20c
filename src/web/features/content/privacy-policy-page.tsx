import { TextPage } from '../../components/text-page.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** What personal data the shop collects, why, who processes it, for how long, and your rights (content/legal/privacy-policy.md). */
export function PrivacyPolicyPage() {
  useScreenTitleAndPageView('/privacy-policy');
  return <TextPage name="privacy-policy" />;
}
