import { Link } from 'react-router';
import { ANALYTICS_CONSENT_KEY, ANALYTICS_CONSENT_MONTHS } from '../../../common/constants.ts';
import { LegalLayout, type PageSection } from '../../components/legal-layout.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { clientConfig } from '../../lib/initial-data.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** The names this shop gives its cookies: the server's, so the policy names them as the browser shows them. */
const { cookies } = clientConfig;
const secure = cookies.session.startsWith('__Host-');

const SECTIONS: PageSection[] = [
  {
    id: 'what-cookies-are',
    title: 'What cookies are',
    content: (
      <>
        <p>
          Cookies are small text files that a website asks your browser to store and send back with later requests. They
          let a site remember, for example, that you are signed in. Browsers also offer similar storage to websites,
          called local storage and session storage, which stays on your device and is not sent with every request.
        </p>
        <p>
          This policy explains which cookies and similar technologies Kitshop uses, why, and how you can control them.
          It complements our <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'essential',
    title: 'Essential cookies',
    content: (
      <>
        <p>
          These are needed for the shop to work: signing in, keeping your cart and paying safely. They are set by
          Kitshop itself, are never used for tracking, and do not require consent.
        </p>
        <ul className="term-list">
          <li>
            <strong>
              <code>{cookies.session}</code> (cookie)
            </strong>{' '}
            keeps you signed in. It ends when you close your browser, or after 30 days if you chose "Remember Me".
          </li>
          <li>
            <strong>
              <code>{cookies.csrf}</code> (cookie)
            </strong>{' '}
            protects every form from cross-site request forgery, so that other websites cannot act in your name. It
            lasts one year.
          </li>
          <li>
            <strong>
              <code>{cookies.oidc}</code> (cookie)
            </strong>{' '}
            is set only while you sign in with Google, to check that the answer comes from the sign-in you started. It
            lasts 10 minutes.
          </li>
          <li>
            <strong>
              <code>{cookies.signIn}</code> (cookie)
            </strong>{' '}
            is set only between your password and your two-step code, so the code finishes the sign-in you started. It
            lasts 10 minutes.
          </li>
          <li>
            <strong>
              <code>cart</code> (local storage)
            </strong>{' '}
            holds the kits in your cart, so it survives a page reload. It stays until you remove the items or clear your
            browser's site data.
          </li>
          <li>
            <strong>
              <code>returnPath</code> (local storage)
            </strong>{' '}
            remembers the page to bring you back to after you sign in or sign up, for example the checkout. It is
            cleared once used.
          </li>
          <li>
            <strong>
              <code>checkout</code> (session storage)
            </strong>{' '}
            remembers the order being paid while the payment window is open. It is deleted when you close the tab.
          </li>
        </ul>
        <p>
          The session and CSRF cookies cannot be read by scripts on the page and are only sent to Kitshop.
          {secure ? (
            <>
              {' '}
              Their names start with <code>__Host-</code>, which tells your browser to accept them only from this site
              over a secure connection, so no other site can set or replace them.
            </>
          ) : null}
        </p>
      </>
    ),
  },
  {
    id: 'analytics',
    title: 'Analytics cookies',
    content: (
      <>
        <p>
          When analytics is enabled, we use Google Analytics to understand how the shop is used: which pages are
          visited, how visitors find us and whether a checkout completed. When it is enabled, a bar at the bottom of the
          page asks you first: Google's script is loaded, and these cookies are set, only after you choose{' '}
          <strong>Accept Analytics</strong>. Until then, and after <strong>Reject Analytics</strong>, nothing is sent to
          Google (we use Google's Consent Mode with analytics and advertising storage denied by default):
        </p>
        <ul className="term-list">
          <li>
            <strong>
              <code>_ga</code>
            </strong>{' '}
            distinguishes one browser from another with a random identifier. It lasts up to 2 years.
          </li>
          <li>
            <strong>
              <code>_ga_&lt;id&gt;</code>
            </strong>{' '}
            keeps the state of the current visit. It lasts up to 2 years.
          </li>
        </ul>
        <p>
          We see these statistics only in aggregated form and do not use them to identify you. Your choice is kept for{' '}
          {ANALYTICS_CONSENT_MONTHS} months in your browser's local storage (<code>{ANALYTICS_CONSENT_KEY}</code>); then
          we ask again. You can change it at any time with <strong>Cookie Settings</strong> at the bottom of every page:
          withdrawing your consent deletes the <code>_ga</code> cookies at once. See also{' '}
          <a href="#managing-cookies">Managing cookies</a>.
        </p>
      </>
    ),
  },
  {
    id: 'functional',
    title: 'Functional cookies',
    content: (
      <p>
        Functional cookies remember choices you make, such as a language or a layout preference, to give you a more
        personal experience. Kitshop does not set functional cookies of its own today. Product videos are embedded from
        YouTube's privacy-enhanced mode (youtube-nocookie.com), which stores data in your browser only once you play a
        video.
      </p>
    ),
  },
  {
    id: 'marketing',
    title: 'Marketing cookies',
    content: (
      <p>
        Marketing cookies follow your browsing across websites to show you adverts and measure their effect. Kitshop
        does not set any marketing cookies today. We describe them here for completeness: if we ever use them, we will
        update this policy first and set them only with your consent.
      </p>
    ),
  },
  {
    id: 'third-parties',
    title: 'Third parties',
    content: (
      <>
        <p>Some cookies come from the services we work with, under their own cookie and privacy policies:</p>
        <ul className="term-list">
          <li>
            <strong>Payment provider (Paddle).</strong> When you open the payment form at checkout, Paddle may set
            cookies that it needs to run the checkout securely and to prevent fraud.
          </li>
          <li>
            <strong>Analytics (Google Analytics).</strong> The cookies listed under Analytics cookies, set only when
            analytics is enabled.
          </li>
          <li>
            <strong>E-mail and marketing provider.</strong> Our e-mail provider sets no cookies on this website. Links
            in our newsletter may pass through it so that we can count, in aggregate, how many readers open a link.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'managing-cookies',
    title: 'Managing cookies',
    content: (
      <>
        <p>
          You control cookies through your browser's settings: you can see which cookies are stored, delete them, and
          block cookies for all sites or for particular ones. The help pages of your browser explain how, for example
          for{' '}
          <a href="https://support.google.com/chrome/answer/95647" rel="noopener noreferrer" target="_blank">
            Chrome
          </a>
          ,{' '}
          <a
            href="https://support.mozilla.org/kb/enhanced-tracking-protection-firefox-desktop"
            rel="noopener noreferrer"
            target="_blank"
          >
            Firefox
          </a>
          ,{' '}
          <a
            href="https://support.apple.com/guide/safari/manage-cookies-sfri11471/mac"
            rel="noopener noreferrer"
            target="_blank"
          >
            Safari
          </a>{' '}
          and{' '}
          <a
            href="https://support.microsoft.com/windows/manage-cookies-in-microsoft-edge-view-allow-block-delete-and-use-168dab11-0753-043d-7c16-ede5947fc64d"
            rel="noopener noreferrer"
            target="_blank"
          >
            Edge
          </a>
          . Clearing your browser's site data also removes the local storage and session storage listed above.
        </p>
        <p>
          Blocking essential cookies stops you from signing in and paying, and clearing site data empties your cart. To
          opt out of Google Analytics on every website, you can install Google's{' '}
          <a href="https://tools.google.com/dlpage/gaoptout" rel="noopener noreferrer" target="_blank">
            opt-out browser add-on
          </a>
          .
        </p>
      </>
    ),
  },
  {
    id: 'updates',
    title: 'Updates to this policy',
    content: (
      <p>
        We update this policy when the cookies we use change, for example when we add a new service. The effective date
        at the top of the page shows the current version, and significant changes are announced in the shop.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        Questions about cookies or your privacy? E-mail <SupportEmail /> or use our{' '}
        <Link to="/contact">contact form</Link>.
      </p>
    ),
  },
];

/** Which cookies and browser storage the shop uses (essential, analytics, functional, marketing) and how to manage them. */
export function CookiePolicyPage() {
  useScreenTitleAndPageView('/cookie-policy');
  return (
    <LegalLayout
      title="Cookie Policy"
      lead={<p>Which cookies and browser storage Kitshop uses, what each one is for, and how you can control them.</p>}
      sections={SECTIONS}
    />
  );
}
