import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { HOME_TITLE } from '../../../common/site.ts';
import { Icon } from '../../components/icon.tsx';
import { balancedColumns } from '../../lib/balanced-grid.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { useKits } from './catalog-api.ts';
import { KitCard } from './kit-card.tsx';

// At the page's end, after a request of its own: its code (and sanitiser) need not be in the first load.
const BlogTeaser = lazy(() => import('../../components/blog-teaser.tsx').then((m) => ({ default: m.BlogTeaser })));

const VALUE = [
  {
    icon: 'code',
    title: 'Full source, no lock-in',
    text: 'Every kit is plain, readable code on mainstream stacks. No runtime licence checks, no hosted dependency on us.',
  },
  {
    icon: 'book',
    title: 'Docs and a setup guide',
    text: 'A Quick Start that gets the kit running locally in minutes, and a guide to changing it without fighting it.',
  },
  {
    icon: 'play',
    title: 'A live demo first',
    text: 'Click through the running app before you pay, so you know exactly what you are getting.',
  },
  {
    icon: 'rocket',
    title: 'Updates included',
    text: 'Bug fixes and new versions of the kits you own land in your user panel, ready to download.',
  },
];

const STEPS = [
  { title: 'Pick a kit', text: 'Compare stacks, read the docs and try the live demo.' },
  { title: 'Pay once', text: 'Checkout by card through our payment provider, which also handles tax and invoices.' },
  { title: 'Download and build', text: 'Your archive, setup guide and docs wait in the user panel straight away.' },
];

const FAQ = [
  {
    q: 'What exactly do I download?',
    a: 'A zip archive with the complete source code of the kit, its README and an example environment file. Documentation and the setup guide are also available online in your user panel.',
  },
  {
    q: 'Can I use a kit for client work?',
    a: 'Yes. The licence covers unlimited personal, commercial or client projects, and you may sell the finished products you build. Redistributing the kit itself, as a kit or template, is not allowed.',
  },
  {
    q: 'Do I pay for updates?',
    a: 'No. New versions of a kit you bought appear in your user panel and can be downloaded at no extra cost.',
  },
  {
    q: 'How are taxes and invoices handled?',
    a: 'Our payment provider acts as the merchant of record: it calculates VAT or sales tax for your country and sends the receipt.',
  },
  {
    q: 'What if the kit does not work for me?',
    a: 'Write to support first; we answer within one business day. Refunds follow our refund policy: within 14 days if the product was not delivered, a critical bug cannot be fixed within 7 days, or you bought the same item twice.',
  },
];

function KitGrid() {
  const { data: kits, isPending, isError, refetch } = useKits();
  // The address's #fragment never reaches the server: the page it rendered (and hydration) has none.
  const hydrated = useHydrated();
  const location = useLocation();
  const hash = hydrated ? location.hash : '';
  useEffect(() => {
    if (hash === '#kits' && kits) document.getElementById('kits')?.scrollIntoView();
  }, [hash, kits]);

  if (isPending) {
    return (
      <div className="row g-4" role="status" aria-busy="true" aria-label="Loading kits">
        {[0, 1, 2].map((i) => (
          <div className="col-12 col-md-6 col-xl-4" key={i}>
            <div className="card kit-card kit-card-placeholder" />
          </div>
        ))}
      </div>
    );
  }
  if (isError) {
    return (
      <div className="alert alert-warning d-flex align-items-center justify-content-between" role="alert">
        We could not load the kits right now.
        <button type="button" className="btn btn-sm btn-outline-dark" onClick={() => refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <div className="row g-4">
      {kits.map((kit, i) => (
        <div className={balancedColumns(i, kits.length, { md: 2, xl: 3 })} key={kit.id}>
          {/* The grid sits below the first screen unless the page opens at #kits: lazy, bar that row. */}
          <KitCard kit={kit} eager={hash === '#kits' && i < 3} />
        </div>
      ))}
    </div>
  );
}

// The teaser is asked for by the browser: the server's page (and its hydration) end before it. Its
// own component: when hydration ends, only it renders again, not the whole page around it.
function LatestPosts() {
  const hydrated = useHydrated();
  return hydrated ? (
    <Suspense fallback={null}>
      <BlogTeaser />
    </Suspense>
  ) : null;
}

export function HomePage() {
  useTitleAndPageView(HOME_TITLE);
  return (
    <>
      <section className="hero">
        <div className="container">
          <p className="eyebrow">Starter kits for developers</p>
          <h1 className="hero-title">Skip the boilerplate. Ship the product.</h1>
          <p className="hero-lead">
            Production-ready starter kits with authentication, billing, dashboards and deployment already wired up. Full
            source code, real documentation and a live demo for every kit.
          </p>
          <div className="d-flex flex-wrap gap-2">
            <a href="#kits" className="btn btn-primary btn-lg">
              Browse Kits
            </a>
            <a href="#how-it-works" className="btn btn-outline-light btn-lg">
              How it works
            </a>
          </div>
          <ul className="hero-points list-unstyled">
            <li>
              <Icon name="check" size={18} /> One-time payment
            </li>
            <li>
              <Icon name="check" size={18} /> Instant download
            </li>
            <li>
              <Icon name="check" size={18} /> Free updates
            </li>
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="value-title">
        <div className="container">
          <h2 id="value-title" className="section-title">
            Everything a kit needs to be worth your money
          </h2>
          <div className="row g-4">
            {VALUE.map((v) => (
              <div className="col-12 col-sm-6 col-lg-3" key={v.title}>
                <div className="value-card">
                  <span className="icon-badge">
                    <Icon name={v.icon} />
                  </span>
                  <h3 className="h6">{v.title}</h3>
                  <p>{v.text}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className="section section-alt" id="kits" aria-labelledby="kits-title">
        <div className="container">
          <h2 id="kits-title" className="section-title">
            Kits
          </h2>
          <p className="section-lead">
            Pick a stack you like. Every kit comes with docs, a setup guide and a live demo.
          </p>
          <KitGrid />
        </div>
      </section>

      <section className="section" id="how-it-works" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title" className="section-title">
            How it works
          </h2>
          <ol className="steps list-unstyled row g-4">
            {STEPS.map((step, i) => (
              <li className="col-12 col-md-4" key={step.title}>
                <span className="step-number">{i + 1}</span>
                <h3 className="h6">{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="faq-title">
        <div className="container narrow">
          <h2 id="faq-title" className="section-title">
            Frequently asked questions
          </h2>
          <div className="faq">
            {FAQ.map((item) => (
              <details key={item.q}>
                <summary>{item.q}</summary>
                <p>{item.a}</p>
              </details>
            ))}
          </div>
        </div>
      </section>

      {/* The latest blog post's teaser (an HTML fragment from /blog/latest.php); nothing without one. */}
      <LatestPosts />
    </>
  );
}
