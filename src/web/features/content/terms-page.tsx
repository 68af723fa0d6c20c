import { Link } from 'react-router';
import { LegalLayout, type PageSection } from '../../components/legal-layout.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

const SECTIONS: PageSection[] = [
  {
    id: 'about-these-terms',
    title: 'About these terms',
    content: (
      <p>
        These terms and conditions govern your use of the Kitshop website and your purchase and use of the downloadable
        software starter kits ("kits") we sell. By creating an account or buying a kit you agree to them. Please also
        read our <Link to="/privacy-policy">Privacy Policy</Link>, which explains how we handle personal data.
      </p>
    ),
  },
  {
    id: 'accounts',
    title: 'Accounts',
    content: (
      <ul>
        <li>You need an account to buy kits and to download them. The details you give us must be accurate.</li>
        <li>
          An account belongs to one person. Keep your password to yourself: you are responsible for what happens in your
          account, and should tell us at once if you believe someone else has used it.
        </li>
        <li>You must be old enough to enter into a binding contract where you live.</li>
        <li>
          You can stop using your account at any time and ask us to delete it. Deleting an account ends access to
          downloads and updates of the kits bought with it.
        </li>
      </ul>
    ),
  },
  {
    id: 'purchases-and-payment',
    title: 'Purchases and payment',
    content: (
      <>
        <p>
          Prices are shown in US dollars. Our order process is handled by our online reseller and payment provider,
          Paddle.com, which is the merchant of record for all our orders. Paddle processes the payment, calculates and
          collects any sales tax or VAT that applies in your country (shown at checkout before you pay), issues your
          invoice or receipt, and handles refunds. Paddle's own buyer terms apply to the payment itself.
        </p>
        <p>
          Once the payment is confirmed, the kit appears in your user panel, usually within minutes, and you receive a
          confirmation e-mail. Because kits are digital content delivered immediately, you agree that delivery starts as
          soon as your payment is confirmed. Buying the same kit twice is unnecessary: a kit you already own is excluded
          from a new order.
        </p>
      </>
    ),
  },
  {
    id: 'licence',
    title: 'Licence',
    content: (
      <>
        <p>
          When your payment is complete we grant you a non-exclusive, non-transferable licence to use the kit you
          bought, on these terms:
        </p>
        <ul>
          <li>The licence is for the original purchaser only.</li>
          <li>You may use the kit in an unlimited number of personal, commercial or client projects.</li>
          <li>You may sell, or have your clients sell, the finished products you build with the kit.</li>
          <li>
            You may not redistribute, resell, sublicense or share the kit itself, in original or modified form,
            including as a template, boilerplate or starter kit, or by publishing its source code where others can
            download it.
          </li>
        </ul>
        <p>
          The full licence text is available with each purchase in your user panel. Kitshop keeps all rights in the kits
          that are not expressly granted to you. Open-source components included in a kit remain under their own
          licences.
        </p>
      </>
    ),
  },
  {
    id: 'refunds',
    title: 'Refunds',
    content: (
      <p>
        Refunds are governed by our <Link to="/refund-policy">Refund Policy</Link>, which explains when a refund can be
        requested and how. Approved refunds are issued by our payment provider to the original payment method. When a
        purchase is refunded, the licence for that kit ends and it is removed from your user panel.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    content: (
      <>
        <p>When using the website you agree not to:</p>
        <ul>
          <li>share your account, your downloads or download links with people who have not bought the kit;</li>
          <li>
            try to gain unauthorised access to the website, other accounts or our systems, or probe, scan or test their
            vulnerability without our written permission;
          </li>
          <li>interfere with the website's operation, overload it, or use automated means to scrape it;</li>
          <li>send spam, malicious code or unlawful content through our forms;</li>
          <li>use the website or the kits for any unlawful purpose.</li>
        </ul>
        <p>
          We may suspend or close an account that breaks these terms. A licence ends automatically if its terms are
          broken.
        </p>
      </>
    ),
  },
  {
    id: 'updates-and-support',
    title: 'Updates and support',
    content: (
      <p>
        New versions of a kit you own appear in your user panel at no extra cost for as long as we maintain the kit. We
        answer questions about setting up and using our kits by e-mail, normally within one business day. Support does
        not include building your product for you, or help with code you have changed beyond the kit's scope.
      </p>
    ),
  },
  {
    id: 'warranty-disclaimer',
    title: 'Warranty disclaimer',
    content: (
      <p>
        We describe each kit accurately and offer its documentation and a live demo so you can judge it before buying.
        Beyond that, and to the extent the law allows, kits are provided "as is", without warranties of any kind,
        express or implied, including warranties of merchantability, fitness for a particular purpose and
        non-infringement, or that a kit will be free of errors or work with every environment. You are responsible for
        reviewing, testing, securing and maintaining the products you build with a kit, and for complying with the terms
        of any third-party services a kit connects to.
      </p>
    ),
  },
  {
    id: 'limitation-of-liability',
    title: 'Limitation of liability',
    content: (
      <>
        <p>
          To the extent the law allows, Kitshop is not liable for indirect, incidental, special or consequential
          damages, or for loss of profits, revenue, data or goodwill, arising from the use of the website or the kits.
          Our total liability for any claim relating to a kit is limited to the amount you paid for that kit.
        </p>
        <p>
          Nothing in these terms limits liability that cannot be limited by law, such as liability for intent or gross
          negligence, or the mandatory rights you have as a consumer.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    content: (
      <p>
        We may change these terms from time to time. The effective date at the top of the page shows the current
        version. Changes apply from that date and do not affect purchases made before it; if a change is significant, we
        will tell you by e-mail or with a notice in the shop.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law and jurisdiction',
    content: (
      <p>
        These terms are governed by the laws of the Republic of Türkiye (Turkish law). The courts and enforcement
        offices of Istanbul have jurisdiction over any dispute arising from these terms or your purchases, without
        prejudice to any mandatory right you have as a consumer to bring proceedings before the courts or consumer
        arbitration committees of your place of residence.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        Questions about these terms? E-mail <SupportEmail /> or use our <Link to="/contact">contact form</Link>.
      </p>
    ),
  },
];

/** Accounts, purchases through the payment provider, the licence, refunds, use of the site, liability, law. */
export function TermsPage() {
  useScreenTitleAndPageView('/terms-and-conditions');
  return (
    <LegalLayout
      title="Terms and Conditions"
      lead={
        <p>
          The rules for using Kitshop and the kits you buy here, written to be read: what you get, what you may do with
          it, and what happens if something goes wrong.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
