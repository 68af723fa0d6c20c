import { Link } from 'react-router';
import { LegalLayout, type PageSection } from '../../components/legal-layout.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

const SECTIONS: PageSection[] = [
  {
    id: 'overview',
    title: 'Overview',
    content: (
      <>
        <p>
          Our kits are digital products: the complete source code is available to download the moment your payment is
          confirmed, and it cannot be returned. That is why every kit has a live demo, public documentation and a
          detailed feature list, so you can check it before you buy, and why refunds are limited to the cases below.
        </p>
        <p>
          This policy does not limit any rights you have under the mandatory consumer protection law of your country.
        </p>
      </>
    ),
  },
  {
    id: 'eligible-refunds',
    title: 'When you can get a refund',
    content: (
      <>
        <p>You may request a refund within 14 days of purchase if:</p>
        <ul>
          <li>
            <strong>the product or licence was not received</strong>: the kit did not appear in your user panel or could
            not be downloaded, and we could not solve the problem;
          </li>
          <li>
            <strong>a critical bug cannot be fixed within 7 days</strong>: a defect that stops the kit from installing
            or running as its documentation describes, which we have not fixed or given you a workaround for within 7
            days of your report;
          </li>
          <li>
            <strong>the same item was purchased twice</strong>: we refund the duplicate purchase.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'not-refundable',
    title: 'What is not refundable',
    content: (
      <>
        <p>We cannot offer a refund for:</p>
        <ul>
          <li>a change of mind after purchase;</li>
          <li>system requirements not met: each kit lists the tools and versions it needs on its product page;</li>
          <li>a misunderstanding of the software: what a kit does and does not do is shown in its demo and docs;</li>
          <li>requests made more than 14 days after the purchase.</li>
        </ul>
        <div className="callout">
          <p>
            Not sure a kit fits your project? Ask before you buy: choose "Pre-sales (pricing, license, usage)" on our{' '}
            <Link to="/contact">contact form</Link> and a developer will answer.
          </p>
        </div>
      </>
    ),
  },
  {
    id: 'how-to-request',
    title: 'How to request a refund',
    content: (
      <>
        <p>
          E-mail <SupportEmail /> from the address you used for the purchase, or use the{' '}
          <Link to="/contact">contact form</Link> with the topic "Billing or refund". Please include:
        </p>
        <ul>
          <li>your order id, which is in your order confirmation e-mail and on your receipt;</li>
          <li>the kit concerned and the reason for the request;</li>
          <li>for a bug: what you did, what happened, and any error output, so we can try to fix it first.</li>
        </ul>
        <p>We reply within one business day and confirm whether the refund is approved.</p>
      </>
    ),
  },
  {
    id: 'how-refunds-are-paid',
    title: 'How refunds are paid',
    content: (
      <p>
        Approved refunds are issued through our payment provider, Paddle, to the payment method you used, including any
        tax that was charged. Refunds take 5–10 business days to appear, depending on your bank or card issuer. Once a
        purchase is refunded, its licence ends and the kit is removed from your user panel.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        Questions about a payment or a refund? E-mail <SupportEmail /> or read our{' '}
        <Link to="/terms-and-conditions">Terms and Conditions</Link>.
      </p>
    ),
  },
];

/** When a purchase can be refunded (spec, section 9), what cannot, and how to ask. */
export function RefundPolicyPage() {
  useScreenTitleAndPageView('/refund-policy');
  return (
    <LegalLayout
      title="Refund Policy"
      lead={<p>When you can get your money back for a kit, how to ask, and how long it takes.</p>}
      sections={SECTIONS}
    />
  );
}
