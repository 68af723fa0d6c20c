import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { heroScreenshot } from '../../../common/hero-image.ts';
import type { KitLicence, KitProduct } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';
import { clientConfig } from '../../lib/initial-data.ts';
import type { KitStanding } from './catalog-api.ts';
import { KitPrice } from './kit-price.tsx';
import { LicenceChoice } from './licence-choice.tsx';
import { PurchaseFacts } from './purchase-facts.tsx';

export type Standing = KitStanding & { pending: boolean };

/** The price as this visitor pays it, the struck original, and the badge that explains the two. */
function HeroPrice({ kit, standing, solo }: { kit: KitProduct; standing: Standing; solo: boolean }) {
  return (
    <p className="hero-price">
      <KitPrice shown={standing.shown} testId="hero-price" oldTestId="hero-old-price" />
      {/* The spec's badge whenever discounted_from is set (it is Solo's: not beside another tier's
          price); an upgrade's own badge beside it. */}
      {kit.discounted_from !== null && solo && <span className="badge discount-badge">Limited-time Discount</span>}
      {standing.upgradeReason && <span className="badge discount-badge">Your upgrade price</span>}
    </p>
  );
}

/**
 * In place of the buy button for a buyer who owns the kit: as tall as the button, so nothing
 * below it moves when the page learns it (after it runs: the server's page is everyone's).
 */
export function OwnedNote({ kit, light = false }: { kit: KitProduct; light?: boolean }) {
  return (
    <p className={`owned-note ${light ? 'owned-note-light' : ''}`} data-testid="owned-note">
      <Icon name="check" size={18} /> <span>You own this kit</span>
      <Link to={`/user-panel/item/${kit.sef_id}`}>Open in User Panel</Link>
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

/** The licence tier the buyer picked (the kit's own id: Solo). */
export type Choice = { chosen: number; onChoose: (id: number) => void };

export function Hero({
  kit,
  standing,
  onBuy,
  choice,
}: {
  kit: KitProduct;
  standing: Standing;
  onBuy: () => void;
  choice: Choice;
}) {
  const withShot = kit.details.screenshots.length > 0;
  return (
    <section className="product-hero">
      <div className="container">
        <div className="row g-4 g-lg-5 align-items-center">
          <div className={withShot ? 'col-12 col-lg-6' : 'col-12 col-lg-9'}>
            <h1 className="product-title">{kit.title}</h1>
            <p className="product-spot">{kit.spot}</p>
            <HeroPrice kit={kit} standing={standing} solo={choice.chosen === kit.id} />
            <LicenceChoice licences={kit.licenses ?? []} {...choice} />
            <div className="hero-actions">
              {/* An owner of Solo may still buy a bigger tier (paying the difference). */}
              {standing.owned ? (
                <OwnedNote kit={kit} light />
              ) : (
                // Until the page knows whether a signed-in buyer owns the kit, the button waits.
                <button
                  type="button"
                  className="btn btn-primary btn-lg hero-buy"
                  onClick={onBuy}
                  disabled={standing.pending}
                >
                  <Icon name="cart" size={18} /> Add to Cart
                </button>
              )}
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
 * while the hero's buy button is scrolled away and the closing banner is not reached yet. With a
 * tier chosen it names the tier and its price, as the closing banner does, since that is what it buys.
 */
export function BuyBar({
  kit,
  standing,
  onBuy,
  tier,
}: {
  kit: KitProduct;
  standing: Standing;
  onBuy: () => void;
  /** The licence tier chosen above Solo, which the bar's button buys (an owner of Solo may still buy it). */
  tier?: KitLicence | undefined;
}) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const hero = document.querySelector('.hero-actions');
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
    <div className="buy-bar d-lg-none" data-testid="buy-bar" hidden={!shown || standing.owned}>
      <div className="container d-flex align-items-center justify-content-between gap-3">
        <p className="mb-0">
          <span className="buy-bar-title">{tier ? `${kit.title}, ${tier.name} licence` : kit.title}</span>
          <KitPrice shown={standing.shown} />
        </p>
        <button type="button" className="btn btn-primary" onClick={onBuy} disabled={standing.pending}>
          Buy this kit
        </button>
      </div>
    </div>
  );
}
