import { Link } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import { LegalLayout, type PageSection } from '../../components/legal-layout.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

const CONTENTS = [
  {
    icon: 'code',
    title: 'The complete source code',
    text: 'A zip archive with every file of the kit, its README and an example environment file. No minified bundles, no obfuscation, no licence checks.',
  },
  {
    icon: 'book',
    title: 'Documentation',
    text: 'Public docs for each kit: its architecture, configuration, deployment and the decisions behind them, readable before you buy.',
  },
  {
    icon: 'rocket',
    title: 'A setup guide',
    text: 'A Quick Start that gets the kit running on your machine in minutes and a How to Modify guide, both in your user panel.',
  },
  {
    icon: 'play',
    title: 'A live demo',
    text: 'The running app, so you can click through every screen before you pay.',
  },
  {
    icon: 'download',
    title: 'Updates',
    text: 'Fixes and new versions of a kit you own appear in your user panel, ready to download, at no extra cost.',
  },
  {
    icon: 'mail',
    title: 'Support from the people who wrote it',
    text: 'Questions about setting up or extending a kit go to the developers who built it.',
  },
];

const SECTIONS: PageSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    content: (
      <>
        <p>
          Kitshop is a small, independent team of developers. Between us we have started dozens of products for
          ourselves and for clients, and every one of them began the same way: a week or two of wiring up sign-in,
          billing, e-mail, a dashboard and a deployment before the first line of the actual product could be written.
        </p>
        <p>
          Our kits are that first stretch of work, done carefully once. We build the starting point we would want to
          inherit ourselves: conventional, readable code on mainstream stacks, with the boring parts finished and
          documented, so that you can spend your time on what makes your product different.
        </p>
      </>
    ),
  },
  {
    id: 'what-a-kit-contains',
    title: 'What a kit contains',
    content: (
      <>
        <p>Every kit in the shop comes with the same things:</p>
        <ul className="kit-contents">
          {CONTENTS.map((item) => (
            <li key={item.title}>
              <span className="icon-badge" aria-hidden="true">
                <Icon name={item.icon} size={20} />
              </span>
              <strong>{item.title}</strong>
              {item.text}
            </li>
          ))}
        </ul>
        <p>
          You pay once. There is no subscription, and nothing in a kit calls home to us: once downloaded, the code is
          yours to run wherever you like.
        </p>
      </>
    ),
  },
  {
    id: 'our-kits',
    title: 'The kits today',
    content: (
      <>
        <p>
          The catalogue covers the stacks our customers ask for most: the <strong>Next.js SaaS Starter</strong> with
          subscriptions and team workspaces, the <strong>Laravel Vue CRM Starter</strong> with a deal pipeline and
          role-based access, the <strong>Go API + SvelteKit Starter</strong> that builds into a single binary, the{' '}
          <strong>Django HTMX Starter</strong> for interactive pages without a JavaScript build step, the{' '}
          <strong>Expo Mobile App Starter</strong> for iOS and Android, and the{' '}
          <strong>React Vite Admin Dashboard</strong> for internal tools.
        </p>
        <p>
          Each kit has its own page with the full feature list, screenshots, a link to the live demo and its
          documentation. <Link to="/#kits">Browse the kits</Link> to compare them.
        </p>
      </>
    ),
  },
  {
    id: 'how-kits-are-built',
    title: 'How kits are built and maintained',
    content: (
      <>
        <ul>
          <li>
            <strong>Current, stable versions.</strong> Kits start on the latest stable release of their framework and
            use well-known libraries rather than our own inventions, so what you learn from the framework's own docs
            applies.
          </li>
          <li>
            <strong>Tested from a clean checkout.</strong> Before a release we follow the kit's own Quick Start on a
            fresh machine, run its test suite and click through the demo, so the instructions you get are the ones that
            actually work.
          </li>
          <li>
            <strong>Plain code, few surprises.</strong> Configuration lives in environment variables, secrets never sit
            in the repository, and every kit explains how to deploy it and how to change the parts you will most likely
            want to change.
          </li>
          <li>
            <strong>Maintained after the sale.</strong> We follow security advisories and major framework releases, ship
            fixes as new versions in your user panel and aim to fix a confirmed critical bug within 7 days.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'licence',
    title: 'The licence in brief',
    content: (
      <>
        <p>When you buy a kit you get a licence that is simple on purpose:</p>
        <ul>
          <li>It belongs to the original purchaser only.</li>
          <li>You may use the kit in an unlimited number of personal, commercial or client projects.</li>
          <li>You may sell the finished products you build with it.</li>
          <li>
            You may not redistribute, resell or share the kit itself, in original or modified form, for example as a
            template, boilerplate or competing starter kit.
          </li>
        </ul>
        <p>
          The full licence text comes with every purchase. Payments, refunds and the rest of the fine print are covered
          by our <Link to="/terms-and-conditions">Terms and Conditions</Link> and{' '}
          <Link to="/refund-policy">Refund Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        Questions before you buy, trouble with a kit you own, or an idea for the next one: write to <SupportEmail /> or
        use the <Link to="/contact">contact form</Link>. A developer reads every message, and we reply within one
        business day.
      </p>
    ),
  },
];

/** Who Kitshop is, what a kit contains, how kits are made, the licence in brief and how to reach us. */
export function AboutPage() {
  useScreenTitleAndPageView('/about');
  return (
    <LegalLayout
      eyebrow="Starter kits built by developers, for developers"
      title="About Kitshop"
      effectiveDate={false}
      lead={
        <p>
          We sell production-ready starter kits: complete source code with a polished UI, real documentation, a setup
          guide and a live demo, so your next product starts from working software instead of an empty folder.
        </p>
      }
      sections={SECTIONS}
      footer={
        <div className="static-cta">
          <h2 className="h5">Ready to skip the boilerplate?</h2>
          <p>Try the live demos, read the docs, and pick the kit that fits your stack.</p>
          <div className="d-flex flex-wrap gap-2">
            <Link to="/#kits" className="btn btn-primary">
              Browse Kits
            </Link>
            <Link to="/contact" className="btn btn-outline-secondary">
              Contact us
            </Link>
          </div>
        </div>
      }
    />
  );
}
