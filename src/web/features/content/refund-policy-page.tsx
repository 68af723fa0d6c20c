import { TextPage } from '../../components/text-page.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** When a purchase can be refunded (spec, section 9), what cannot, and how to ask (content/legal/refund-policy.md). */
export function RefundPolicyPage() {
  useScreenTitleAndPageView('/refund-policy');
  return <TextPage name="refund-policy" />;
}
