import './product-page.scss';
import './product-icons.ts';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { INCLUDED_MAIN_COUNT } from '../../../common/constants.ts';
import { heroScreenshot } from '../../../common/hero-image.ts';
import { formatPrice } from '../../../common/money.ts';
import type { KitProduct } from '../../../common/schemas/catalog.ts';
import { HtmlContent } from '../../components/html-content.tsx';
import { Icon } from '../../components/icon.tsx';
import { LoadFailedPage, NotFoundPage } from '../../components/not-found-page.tsx';
import { ApiError } from '../../lib/api.ts';
import { balancedColumns } from '../../lib/balanced-grid.ts';
import { useAddToCart } from '../../lib/cart/use-cart.ts';
import { clientConfig } from '../../lib/initial-data.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { BundleContents } from './bundle-contents.tsx';
import { useKit } from './catalog-api.ts';
import { splitFaq } from './faq-split.ts';
import { LicenceChoice } from './licence-choice.tsx';
import { PurchaseFacts } from './purchase-facts.tsx';
import { ScreenshotGallery } from './screenshot-gallery.tsx';
import { Section } from './section.tsx';

/** The price as a shop shows it: the price, the struck original, and the badge that explains the two. */
function HeroPrice({ kit }: { kit: KitProduct }) {
  return (
    <p className="hero-price">
      <span className="price" data-testid="hero-price">
        {formatPrice(kit.price)}
      </span>
      {kit.discounted_from !== null && (
        <>
          <del className="old-price" data-testid="hero-old-price">
            {formatPrice(kit.discounted_from)}
          </del>
          <span className="badge discount-badge">Limited-time Discount</span>
        </>
      )}
    </p>
  );
}

/** Where the hero shows its screenshot (Bootstrap's lg, as the page shell's preload). */
const HERO_MEDIA = '(min-width: 992px)';
/** A transparent pixel: what the hero's <img> holds where its screenshot is not shown. */
const BLANK_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';

/**
 * The kit's first screenshot beside the title from lg up:
 * sized by its attributes, fetched first and never lazily, as it is the wide screen's largest paint.
 */
function HeroShot({ kit }: { kit: KitProduct }) {
  const image = heroScreenshot(kit, clientConfig.basePath);
  if (!image) return null;
  // Wide screens only: on a phone the gallery further down shows the screenshots, and the first
  // screen stays text that paints at once (the <picture> fetches nothing below 992 px).
  return (
    <div className="col-12 col-lg-6 d-none d-lg-block">
      <div className="hero-shot" data-testid="hero-shot">
        <span className="hero-shot-bar" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        <picture>
          <source media={HERO_MEDIA} srcSet={image.srcSet} sizes={image.sizes} />
          <img src={BLANK_IMAGE} width={image.width} height={image.height} alt={image.alt} fetchPriority="high" />
        </picture>
      </div>
    </div>
  );
}

type Choice = { chosen: number; onChoose: (id: number) => void };

function Hero({ kit, onBuy, choice }: { kit: KitProduct; onBuy: () => void; choice: Choice }) {
  const withShot = kit.details.screenshots.length > 0;
  return (
    <section className="product-hero">
      <div className="container">
        <div className="row g-4 g-lg-5 align-items-center">
          <div className={withShot ? 'col-12 col-lg-6' : 'col-12 col-lg-9'}>
            <h1 className="product-title">{kit.title}</h1>
            <p className="product-spot">{kit.spot}</p>
            <HeroPrice kit={kit} />
            <LicenceChoice licences={kit.licenses ?? []} {...choice} />
            <div className="hero-actions">
              <button type="button" className="btn btn-primary btn-lg hero-buy" onClick={onBuy}>
                <Icon name="cart" size={18} /> Add to Cart
              </button>
              <a
                href={kit.details.demo.url}
                className="btn btn-outline-light btn-lg"
                target="_blank"
                rel="noopener noreferrer"
              >
                Try Before You Buy <Icon name="external" size={18} />
              </a>
            </div>
            <p className="hero-notes">
              <span className="instant-download">
                <Icon name="download" size={18} /> Instant download
              </span>
              {kit.documentation && (
                <Link to={`/docs/${kit.sef_id}`} className="hero-docs">
                  <Icon name="book" size={18} /> Documentation
                </Link>
              )}
            </p>
            <PurchaseFacts kit={kit} />
          </div>
          <HeroShot kit={kit} />
        </div>
      </div>
    </section>
  );
}

/**
 * Phones only (below the 992 px menu breakpoint): the price and a buy button pinned to the bottom
 * while the hero's buy button is scrolled away and the closing banner is not reached yet.
 */
function BuyBar({ kit, onBuy }: { kit: KitProduct; onBuy: () => void }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const hero = document.querySelector('.hero-buy');
    const closing = document.querySelector('.closing-banner');
    if (!hero || !closing) return;
    const state = { heroGone: false, closingAhead: true };
    const observer = new IntersectionObserver((entries) => {
      for (const { target, isIntersecting, boundingClientRect } of entries) {
        if (target === hero) state.heroGone = !isIntersecting && boundingClientRect.top < 0;
        else state.closingAhead = !isIntersecting && boundingClientRect.top > 0;
      }
      setShown(state.heroGone && state.closingAhead);
    });
    observer.observe(hero);
    observer.observe(closing);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="buy-bar d-lg-none" data-testid="buy-bar" hidden={!shown}>
      <div className="container d-flex align-items-center justify-content-between gap-3">
        <p className="mb-0">
          <span className="buy-bar-title">{kit.title}</span>
          <span className="price">{formatPrice(kit.price)}</span>
          {kit.discounted_from !== null && <del className="old-price">{formatPrice(kit.discounted_from)}</del>}
        </p>
        <button type="button" className="btn btn-primary" onClick={onBuy}>
          Buy this kit
        </button>
      </div>
    </div>
  );
}

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

function Product({ kit }: { kit: KitProduct }) {
  const addToCart = useAddToCart();
  const navigate = useNavigate();
  const { details } = kit;
  // Solo (the kit's own id) until the buyer picks another tier.
  const [chosen, setChosen] = useState(kit.id);
  const licence = kit.licenses?.find((l) => l.id === chosen);
  const tier = licence && licence.id !== kit.id ? licence : undefined;
  const buyNow = () => {
    addToCart(chosen);
    navigate('/cart');
  };
  return (
    <article className="product">
      <Hero kit={kit} onBuy={buyNow} choice={{ chosen, onChoose: setChosen }} />

      <BundleContents kit={kit} />

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
      <BuyBar kit={kit} onBuy={buyNow} />

      <section className="closing-banner" aria-labelledby="closing-title">
        <div className="container d-flex flex-column flex-md-row align-items-md-center justify-content-between gap-3">
          <div>
            <h2 id="closing-title" className="h3">
              Get {kit.title}
            </h2>
            <p className="mb-0 closing-price">
              {tier && <span className="closing-licence">{tier.name} licence</span>}
              <span className="price" data-testid="price">
                {formatPrice(tier ? tier.price : kit.price)}
              </span>
              {!tier && kit.discounted_from !== null && (
                <del className="old-price" data-testid="old-price">
                  {formatPrice(kit.discounted_from)}
                </del>
              )}
              <span className="closing-note">One-time payment · Instant download</span>
            </p>
            <PurchaseFacts kit={kit} />
          </div>
          <button type="button" className="btn btn-light btn-lg px-5" onClick={buyNow}>
            Buy Now
          </button>
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
