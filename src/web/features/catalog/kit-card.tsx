import { memo } from 'react';
import { Link } from 'react-router';
import { HOME_CARD_FEATURES } from '../../../common/constants.ts';
import { longDate } from '../../../common/dates.ts';
import type { KitSummary } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';
import { useAddToCart } from '../../lib/cart/use-cart.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { REFUND_TERMS } from '../../lib/refund-terms.ts';
import { BundleCardLine } from './bundle-card-line.tsx';
import { KitPrice, type ShownPrice } from './kit-price.tsx';

export const PAY_BY_CARD = 'Pay by card through Paddle';

/** "Version 2.3.0, released 14 October 2025" (the day left out when the store never recorded it). */
export function VersionLine({ kit }: { kit: KitSummary }) {
  return (
    <p>
      <Icon name="download" size={16} /> Version {kit.version}
      {kit.released_on && `, released ${longDate(kit.released_on)}`}
    </p>
  );
}

/**
 * Beside a card's price, what it buys, in short lines (the product page has PurchaseFacts): lines,
 * not a list, as a card's only list items are its features (the spec's first 3).
 */
function CardFacts({ kit }: { kit: KitSummary }) {
  return (
    <div className="purchase-facts compact" data-testid="purchase-facts">
      <VersionLine kit={kit} />
      <p>
        <Icon name="shield" size={16} /> Licence: unlimited personal, commercial and client projects
      </p>
      <p>
        <Icon name="check" size={16} /> {REFUND_TERMS.days}-day refund policy
      </p>
      <p>
        <Icon name="card" size={16} /> {PAY_BY_CARD}
      </p>
    </div>
  );
}

type KitCardProps = { kit: KitSummary; shown: ShownPrice; eager?: boolean };

/** `eager`: the card is in the first screen (the grid's first row when the page opens at #kits). */
function Card({ kit, shown, eager = false }: KitCardProps) {
  const addToCart = useAddToCart();
  return (
    <article className="card kit-card h-100" aria-labelledby={`kit-${kit.id}-title`}>
      {kit.thumbnail && (
        // Sized by its attributes (640x400, the thumbnail's own size), so nothing shifts while it loads.
        <img
          className="kit-thumb"
          src={appUrl(kit.thumbnail.url)}
          alt={kit.thumbnail.alt}
          width={640}
          height={400}
          loading={eager ? 'eager' : 'lazy'}
        />
      )}
      <div className="card-body d-flex flex-column">
        <h3 className="h5 card-title" id={`kit-${kit.id}-title`}>
          {kit.title}
        </h3>
        <p className="card-text kit-spot">{kit.spot}</p>
        <ul className="kit-features list-unstyled">
          {kit.features.slice(0, HOME_CARD_FEATURES).map((feature) => (
            <li key={feature}>
              <Icon name="check" size={16} className="text-success" /> {feature}
            </li>
          ))}
        </ul>
        <BundleCardLine kit={kit} />
        <p className="kit-price mt-auto">
          <KitPrice shown={shown} />
        </p>
        <CardFacts kit={kit} />
        <div className="d-flex gap-2">
          <Link
            to={`/product/${kit.sef_id}`}
            className="btn btn-outline-primary flex-fill"
            aria-label={`Details of ${kit.title}`}
          >
            Details
          </Link>
          <button
            type="button"
            className="btn btn-primary flex-fill"
            onClick={() => addToCart(kit.id)}
            aria-label={`Buy ${kit.title}`}
          >
            Buy
          </button>
        </div>
      </div>
    </article>
  );
}

/**
 * A home card, drawn again only when what it shows changes (its kit, its price, how its picture
 * loads): the grid renders again when the page comes alive and when a code is priced, most often
 * with the same cards.
 */
export const KitCard = memo(
  Card,
  (before, after) =>
    before.kit === after.kit &&
    before.eager === after.eager &&
    before.shown.price === after.shown.price &&
    before.shown.was === after.shown.was,
);
