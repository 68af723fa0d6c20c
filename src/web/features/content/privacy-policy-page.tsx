import { Link } from 'react-router';
import { RETENTION_DAYS } from '../../../common/constants.ts';
import { LegalLayout, type PageSection } from '../../components/legal-layout.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { clientConfig } from '../../lib/initial-data.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** The limits the shop's housekeeping deletes by: the same numbers, from the same source. */
const KEPT = { ...RETENTION_DAYS, contactMessages: clientConfig.messageRetentionDays };

const SECTIONS: PageSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    content: (
      <>
        <p>
          Kitshop ("Kitshop", "we", "us") runs this website and sells downloadable software starter kits to developers.
          We are responsible, as data controller, for the personal data described in this policy. You can reach us about
          anything in it at <SupportEmail />.
        </p>
        <p>
          We handle personal data in line with the data protection laws that apply to us and to you, including the
          Turkish Law on the Protection of Personal Data No. 6698 (KVKK) and, where it applies, the EU and UK General
          Data Protection Regulation (GDPR).
        </p>
      </>
    ),
  },
  {
    id: 'data-we-collect',
    title: 'Data we collect',
    content: (
      <>
        <h3>Your account</h3>
        <p>
          When you sign up we store your full name, your e-mail address, whether you have verified it, and your
          password, which we keep only as a salted one-way hash and can never read. If you sign in with Google, we
          receive your name, e-mail address and Google account identifier from Google; we never see your Google
          password.
        </p>
        <h3>Orders and purchases</h3>
        <p>
          We keep a record of your orders: the kits in them, prices, dates, the order number and which kits you can
          download. Payments are made on the checkout of our payment provider, which receives your card or other payment
          details, billing country and tax information directly. We never see or store your full card number.
        </p>
        <h3>Contact messages</h3>
        <p>
          When you use the contact form we store the topic, your name, your e-mail address, your message and the IP
          address it came from, and forward the message to our support inbox.
        </p>
        <h3>Newsletter</h3>
        <p>If you subscribe to the newsletter we store your e-mail address and when you subscribed or unsubscribed.</p>
        <h3>Technical and usage data</h3>
        <p>
          Our servers log technical data with each request, such as your IP address, browser type, the page requested
          and the time. When analytics is enabled, Google Analytics uses cookies to measure which pages are visited and
          how the shop is used; see our <Link to="/cookie-policy">Cookie Policy</Link> for details.
        </p>
      </>
    ),
  },
  {
    id: 'purposes-and-legal-bases',
    title: 'How we use your data and our legal bases',
    content: (
      <>
        <ul>
          <li>
            <strong>To run your account and deliver what you bought</strong>: sign-in, your user panel, downloads,
            documentation and setup guides. Legal basis: performance of our contract with you.
          </li>
          <li>
            <strong>To take payments, and to handle taxes, invoices and refunds</strong> through our payment provider.
            Legal bases: performance of a contract, and our legal obligations to keep tax and accounting records.
          </li>
          <li>
            <strong>To answer your messages</strong> and help with a kit. Legal basis: our legitimate interest in
            supporting customers and visitors, or steps you ask for before buying.
          </li>
          <li>
            <strong>To send service e-mails</strong> such as e-mail verification, password resets and order
            confirmations. Legal basis: performance of a contract.
          </li>
          <li>
            <strong>To send the newsletter</strong> about new kits and major updates. Legal basis: your consent, which
            you can withdraw at any time with the unsubscribe link in every newsletter.
          </li>
          <li>
            <strong>To keep the shop secure</strong>: preventing fraud, abuse and automated attacks, for example by
            limiting repeated sign-in attempts. Legal basis: our legitimate interest in protecting our customers and our
            service.
          </li>
          <li>
            <strong>To understand and improve the shop</strong> with aggregated analytics. Legal basis: our legitimate
            interest in improving the shop, and for analytics cookies your consent, which the shop asks for before
            Google Analytics loads and which you can withdraw at any time, as our{' '}
            <Link to="/cookie-policy">Cookie Policy</Link> explains.
          </li>
          <li>
            <strong>To comply with the law</strong>, for example when a public authority makes a lawful request. Legal
            basis: legal obligation.
          </li>
        </ul>
        <p>
          We do not sell your personal data, we do not use it for advertising profiles, and we do not make decisions
          about you by automated means that have legal or similarly significant effects.
        </p>
      </>
    ),
  },
  {
    id: 'processors',
    title: 'Who we share data with',
    content: (
      <>
        <p>We share personal data only with the service providers we need to run the shop:</p>
        <ul className="term-list">
          <li>
            <strong>Paddle (payment provider and merchant of record).</strong> Paddle.com Market Ltd sells our kits to
            you as the merchant of record: it processes your payment, calculates and collects sales tax or VAT, issues
            invoices and receipts, and handles refunds. Paddle receives the order details and the data you enter on its
            checkout, and processes payment data under its own privacy notice.
          </li>
          <li>
            <strong>Analytics (Google Analytics).</strong> When analytics is enabled, Google receives usage data and a
            pseudonymous identifier from its cookies to produce aggregated statistics for us.
          </li>
          <li>
            <strong>E-mail delivery.</strong> Our e-mail delivery provider sends our service e-mails and the newsletter
            on our behalf, and so processes your name, e-mail address and the content of those e-mails.
          </li>
          <li>
            <strong>Hosting.</strong> Our hosting and storage providers keep the servers, database and files that the
            shop runs on.
          </li>
        </ul>
        <p>
          These providers may use the data only to provide their service to us, under contracts that require them to
          protect it. We may also disclose data when the law requires it, or to establish or defend legal claims.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep data',
    content: (
      <ul>
        <li>
          <strong>Account data</strong>: for as long as your account exists. You can delete your account yourself in the
          Profile tab of your User Panel, which removes it at once, except for the records below that we must keep. An
          account whose e-mail address is never verified is deleted after {KEPT.unverifiedAccounts} days.
        </li>
        <li>
          <strong>Order records</strong>: for as long as you have access to your purchases, and afterwards for the
          period tax and accounting law requires, which can be up to 10 years. Once your account is deleted they are no
          longer linked to your name or e-mail address.
        </li>
        <li>
          <strong>Download history</strong>: each download of a kit, with the IP address it came from, for{' '}
          {KEPT.downloadLogsAndIps} days.
        </li>
        <li>
          <strong>Contact messages</strong>: {KEPT.contactMessages} days after they were sent, so we can follow up on
          earlier questions; the IP address a message came from, {KEPT.downloadLogsAndIps} days.
        </li>
        <li>
          <strong>Newsletter</strong>: until you unsubscribe. We then keep only a record that you unsubscribed, so that
          we do not write to you again.
        </li>
        <li>
          <strong>Server logs</strong>: up to 30 days, longer only when needed to investigate a security incident.
        </li>
        <li>
          <strong>Analytics data</strong>: up to 14 months, in aggregated or pseudonymous form.
        </li>
      </ul>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    content: (
      <>
        <p>Subject to the conditions of the law that applies to you, you have the right to:</p>
        <ul>
          <li>
            <strong>Access</strong> the personal data we hold about you and receive a copy of it;
          </li>
          <li>
            <strong>Correction</strong> of data that is inaccurate or incomplete;
          </li>
          <li>
            <strong>Deletion</strong> of your data when we no longer need it or have no legal basis to keep it;
          </li>
          <li>
            <strong>Objection</strong> to processing based on our legitimate interests, and to direct marketing at any
            time;
          </li>
          <li>restriction of processing and portability of the data you gave us;</li>
          <li>withdraw your consent at any time, without affecting processing that took place before;</li>
          <li>
            complain to a data protection authority, such as the Turkish Personal Data Protection Authority or the
            authority where you live or work.
          </li>
        </ul>
        <p>
          Signed in, you can use several of them yourself in the Profile tab of your{' '}
          <Link to="/user-panel?tab=profile">User Panel</Link>: <strong>Download My Data</strong> gives you a copy of
          everything we hold about your account in a machine-readable file (JSON), <strong>Change Email</strong>{' '}
          corrects your address, and <strong>Delete Account</strong> erases your account. Analytics consent is changed
          with Cookie Settings at the bottom of every page. For anything else, e-mail <SupportEmail /> from the address
          linked to your account. We may ask you to confirm your identity, and we answer within 30 days.
        </p>
      </>
    ),
  },
  {
    id: 'international-transfers',
    title: 'International transfers',
    content: (
      <p>
        Some of our providers process data in countries other than yours, including the United States and countries of
        the European Union. Where data leaves your country, we rely on safeguards recognised by law, such as adequacy
        decisions, standard contractual clauses approved by the competent authorities, or your explicit consent where
        the law requires it.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    content: (
      <p>
        The shop is served over an encrypted connection. Passwords are stored only as strong one-way hashes, session
        cookies cannot be read by scripts, every form is protected against cross-site request forgery, and repeated
        sign-in attempts are throttled. Access to personal data is limited to the people who need it to run the shop,
        and card details never reach our servers. No system is completely secure; if a breach affects your data, we will
        inform you and the authorities as the law requires.
      </p>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    content: (
      <p>
        Kitshop is a shop for developers and businesses and is not directed at children. We do not knowingly collect
        personal data from children under 13. If you believe a child under 13 has given us personal data, please contact
        us and we will delete it.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    content: (
      <p>
        We may update this policy when our services or the law change. The effective date at the top of the page always
        shows the current version. If a change significantly affects how we use your data, we will tell you by e-mail or
        with a notice in the shop before it takes effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        For any question about this policy or your personal data, e-mail <SupportEmail /> or use our{' '}
        <Link to="/contact">contact form</Link>.
      </p>
    ),
  },
];

/** What personal data the shop collects, why, who processes it, for how long, and your rights. */
export function PrivacyPolicyPage() {
  useScreenTitleAndPageView('/privacy-policy');
  return (
    <LegalLayout
      title="Privacy Policy"
      lead={
        <p>
          This policy explains what personal data Kitshop collects when you visit the shop, create an account, buy a
          kit, contact us or subscribe to our newsletter, how we use it, and the choices you have.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
