import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import home from '../../../../content/home.json';
import testimonialsFile from '../../../../content/testimonials.json';
import { HOME_TITLE } from '../../../common/site.ts';
import { Icon } from '../../components/icon.tsx';
import { balancedColumns } from '../../lib/balanced-grid.ts';
import { type CodeOfferState, useCodeOffer } from '../../lib/cart/code-offer.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { fillRefundTerms } from '../../lib/refund-terms.ts';
import { shownPrice, useKits } from './catalog-api.ts';
import { KitShelf, TrustLine } from './home-shelf.tsx';
import { KitCard } from './kit-card.tsx';

// At the page's end, after a request of its own: its code (and sanitiser) need not be in the first load.
const BlogTeaser = lazy(() => import('../../components/blog-teaser.tsx').then((m) => ({ default: m.BlogTeaser })));

/** The page's copy and FAQ (content/home.json), the refund terms in its answers filled in. */
const { hero, value, kits: kitsSection, steps, faq } = home;
const FAQ = faq.items.map((item) => ({ q: item.q, a: fillRefundTerms(item.a) }));

function KitGrid({ code }: { code: CodeOfferState }) {
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
          <KitCard kit={kit} shown={shownPrice(kit, code)} eager={hash === '#kits' && i < 3} />
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

export type Testimonial = { quote: string; name: string; role?: string };
const testimonials = testimonialsFile as { title: string; items: Testimonial[] };

/** Quotes from buyers, only as the seller wrote them in content/testimonials.json: none, no section. */
function Testimonials() {
  if (testimonials.items.length === 0) return null;
  return (
    <section className="section" aria-labelledby="testimonials-title">
      <div className="container">
        <h2 id="testimonials-title" className="section-title">
          {testimonials.title}
        </h2>
        <div className="row g-4">
          {testimonials.items.map((item) => (
            <figure className="col-12 col-md-6 col-lg-4 testimonial" key={item.quote}>
              <blockquote>
                <p>{item.quote}</p>
              </blockquote>
              <figcaption>
                {item.name}
                {item.role && <span className="testimonial-role">, {item.role}</span>}
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}

function Hero({ code }: { code: CodeOfferState }) {
  const { data: kits } = useKits();
  const shelf = kits && kits.length > 0;
  return (
    <section className="hero">
      <div className="container">
        <div className="row g-4 g-xl-5 align-items-center">
          <div className={shelf ? 'col-12 col-lg-6' : 'col-12'}>
            <p className="eyebrow">{hero.eyebrow}</p>
            <h1 className="hero-title">{hero.title}</h1>
            <p className="hero-lead">{hero.lead}</p>
            <div className="d-flex flex-wrap gap-2">
              <a href="#kits" className="btn btn-primary btn-lg">
                {hero.browse}
              </a>
              <a href="#how-it-works" className="btn btn-outline-light btn-lg">
                {hero.how_it_works}
              </a>
            </div>
            <ul className="hero-points list-unstyled">
              {hero.points.map((point) => (
                <li key={point}>
                  <Icon name="check" size={18} /> {point}
                </li>
              ))}
            </ul>
            {kits && <TrustLine kits={kits} />}
          </div>
          {shelf && (
            <div className="col-12 col-lg-6">
              <KitShelf kits={kits} code={code} />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

export function HomePage() {
  useTitleAndPageView(HOME_TITLE);
  const code = useCodeOffer();
  return (
    <>
      <Hero code={code} />

      <section className="section" aria-labelledby="value-title">
        <div className="container">
          <h2 id="value-title" className="section-title">
            {value.title}
          </h2>
          <div className="row g-4">
            {value.items.map((v) => (
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
            {kitsSection.title}
          </h2>
          <p className="section-lead">{kitsSection.lead}</p>
          <KitGrid code={code} />
        </div>
      </section>

      <Testimonials />

      <section className="section" id="how-it-works" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title" className="section-title">
            {steps.title}
          </h2>
          <ol className="steps list-unstyled row g-4">
            {steps.items.map((step, i) => (
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
            {faq.title}
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
