import './product-page.scss';
import './product-icons.ts';
import { memo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { INCLUDED_MAIN_COUNT } from '../../../common/constants.ts';
import type { KitProduct } from '../../../common/schemas/catalog.ts';
import { useCurrentUser } from '../../app/session.ts';
import { HtmlContent } from '../../components/html-content.tsx';
import { Icon } from '../../components/icon.tsx';
import { LoadFailedPage, NotFoundPage } from '../../components/not-found-page.tsx';
import { ApiError } from '../../lib/api.ts';
import { balancedColumns } from '../../lib/balanced-grid.ts';
import { useAddToCart } from '../../lib/cart/use-cart.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { BundleContents } from './bundle-contents.tsx';
import { tierAsKit, useKit, useKitStanding } from './catalog-api.ts';
import { splitFaq } from './faq-split.ts';
import { KitPrice } from './kit-price.tsx';
import { BuyBar, Hero, OwnedNote } from './product-hero.tsx';
import { PurchaseFacts } from './purchase-facts.tsx';
import { ScreenshotGallery } from './screenshot-gallery.tsx';
import { Section } from './section.tsx';

function IncludedList({ items, testId }: { items: string[]; testId: string }) {
  return (
    <ul className="included list-unstyled row g-2" data-testid={testId}>
      {items.map((item) => (
        <li className="col-12 col-md-6" key={item}>
          <Icon name="check" size={18} className="text-success" /> {item}
        </li>
      ))}
    </ul>
  );
}

function Included({ items }: { items: string[] }) {
  const main = items.slice(0, INCLUDED_MAIN_COUNT);
  const more = items.slice(INCLUDED_MAIN_COUNT);
  return (
    <Section titleId="included-title" title="What's Included">
      <IncludedList items={main} testId="included-main" />
      {more.length > 0 && (
        <div className="included-more">
          <h3 className="h5">And there's even more</h3>
          <IncludedList items={more} testId="included-more" />
        </div>
      )}
    </Section>
  );
}

function Faq({ items }: { items: KitProduct['details']['faq'] }) {
  const columns = splitFaq(items);
  return (
    <Section titleId="product-faq-title" title="Frequently asked questions" alt>
      <div className="row g-4">
        {columns.map((column, i) => (
          <div className="col-12 col-lg-6 faq" data-testid={`faq-column-${i + 1}`} key={i === 0 ? 'first' : 'second'}>
            {column.map((item) => (
              <details key={item.question}>
                <summary>{item.question}</summary>
                <p>{item.answer}</p>
              </details>
            ))}
          </div>
        ))}
      </div>
    </Section>
  );
}

/**
 * The kit's own sections between the hero and the closing banner: the same for every visitor, so
 * drawn once; what the page learns about the visitor when it comes alive (owned, their price, the
 * buy buttons' state) renders the hero and the banners again, not these.
 */
const KitSections = memo(function KitSections({ kit }: { kit: KitProduct }) {
  const { details } = kit;
  return (
    <>
      <section className="section header-cards" aria-label="Highlights">
        <div className="container">
          <div className="row g-4">
            {details.headerCards.map((card, i) => (
              <div className={`${balancedColumns(i, details.headerCards.length, { md: 2 })} col-lg`} key={card.title}>
                <div className="value-card h-100">
                  <span className="icon-badge">
                    <Icon name={card.icon} />
                  </span>
                  <h2 className="h6">{card.title}</h2>
                  <p>{card.text}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      {details.video && (
        <Section titleId="video-title" title="See it in action" alt narrow>
          <p className="section-lead">{details.video.text}</p>
          <div className="ratio ratio-16x9 video-frame">
            <iframe
              src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(details.video.id)}`}
              title={`${kit.title} video`}
              loading="lazy"
              allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
            />
          </div>
        </Section>
      )}

      <section className="section" aria-labelledby="heading-title">
        <div className="container">
          <div className="row g-4 g-lg-5">
            <div className="col-12 col-lg-6">
              <h2 id="heading-title" className="section-title text-start">
                {details.heading.title}
              </h2>
              <p className="lead">{details.heading.lead}</p>
              <HtmlContent html={details.heading.text} className="prose" />
            </div>
            <div className="col-12 col-lg-6">
              <h3 className="h6 text-uppercase text-body-secondary">Features</h3>
              <ul className="heading-features list-unstyled">
                {details.heading.features.map((html) => (
                  <li key={html}>
                    <Icon name="check" size={18} className="text-success" /> <HtmlContent html={html} as="span" />
                  </li>
                ))}
              </ul>
              <ul className="kit-feature-list list-unstyled">
                {kit.features.map((feature) => (
                  <li key={feature}>
                    <Icon name="bolt" size={16} /> {feature}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </section>

      <Section titleId="screenshots-title" title={details.screenshotsTitle} alt>
        <ScreenshotGallery screenshots={details.screenshots} />
      </Section>

      <Included items={details.included} />

      <Section titleId="why-title" title="Why choose this kit" alt>
        <ul className="why list-unstyled row g-4">
          {details.why.map((item, i) => (
            <li className={balancedColumns(i, details.why.length, { md: 2, lg: 3 })} key={item.text}>
              <span className="icon-badge">
                <Icon name={item.icon} />
              </span>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Faq items={details.faq} />
    </>
  );
});

function Product({ kit }: { kit: KitProduct }) {
  const addToCart = useAddToCart();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const standing = useKitStanding(kit, user?.id ?? null);
  // Solo (the kit's own id) until the buyer picks another tier.
  const [chosen, setChosen] = useState(kit.id);
  const licence = kit.licenses?.find((l) => l.id === chosen);
  const tier = licence && licence.id !== kit.id ? licence : undefined;
  // The chosen tier as this visitor pays it, priced as the cart prices it alone: an owner of Solo
  // sees the difference the cart charges for Team. Solo's own standing when Solo is chosen.
  const chosenStanding = useKitStanding(tier ? tierAsKit(kit, tier) : kit, user?.id ?? null);
  const buyNow = () => {
    addToCart(chosen);
    navigate('/cart');
  };
  return (
    <article className="product">
      <Hero kit={kit} standing={chosenStanding} onBuy={buyNow} choice={{ chosen, onChoose: setChosen }} />

      <BundleContents kit={kit} upgradeReason={standing.upgradeReason} />

      <KitSections kit={kit} />
      <BuyBar kit={kit} standing={chosenStanding} onBuy={buyNow} tier={tier} />

      <section className="closing-banner" aria-labelledby="closing-title">
        <div className="container d-flex flex-column flex-md-row align-items-md-center justify-content-between gap-3">
          <div>
            <h2 id="closing-title" className="h3">
              Get {kit.title}
            </h2>
            <p className="mb-0 closing-price">
              {tier && <span className="closing-licence">{tier.name} licence</span>}
              <KitPrice shown={chosenStanding.shown} testId="price" oldTestId="old-price" />
              <span className="closing-note">One-time payment · Instant download</span>
            </p>
            <PurchaseFacts kit={kit} />
          </div>
          {chosenStanding.owned ? (
            <OwnedNote kit={kit} light />
          ) : (
            <button
              type="button"
              className="btn btn-light btn-lg px-5"
              onClick={buyNow}
              disabled={chosenStanding.pending}
            >
              Buy Now
            </button>
          )}
        </div>
      </section>
    </article>
  );
}

export function ProductPage() {
  const { sefId = '' } = useParams();
  const { data: kit, error, isPending } = useKit(sefId);
  useTitleAndPageView(kit?.title);
  // null: the server rendered this address as an unknown kit (it answers 404 for it).
  if ((error instanceof ApiError && error.status === 404) || kit === null) return <NotFoundPage />;
  if (isPending) {
    return (
      <div className="product-hero product-loading" aria-busy="true">
        <div className="container">
          <span className="visually-hidden">Loading the kit…</span>
        </div>
      </div>
    );
  }
  if (!kit) {
    return <LoadFailedPage>We could not load this kit right now. Please try again in a moment.</LoadFailedPage>;
  }
  return <Product kit={kit} />;
}
