import { formatPrice } from '../../../common/money.ts';
import type { KitLicence } from '../../../common/schemas/catalog.ts';

const seatsText = (seats: number) => (seats === 1 ? '1 developer' : `${seats} developers`);

/**
 * The licence tiers a kit is sold in, one radio each (its name, seats and price), above the hero's
 * Add to Cart: the chosen one is what Add to Cart and the closing banner's Buy Now put in the cart.
 * Nothing to choose for a kit sold in one tier.
 */
export function LicenceChoice({
  licences,
  chosen,
  onChoose,
}: {
  licences: KitLicence[];
  chosen: number;
  onChoose: (id: number) => void;
}) {
  if (licences.length < 2) return null;
  return (
    <fieldset className="licence-choice">
      <legend>Licence</legend>
      <div className="licence-options">
        {licences.map((licence) => (
          <label className="licence-option" key={licence.id}>
            <input
              type="radio"
              name="licence"
              value={licence.id}
              checked={chosen === licence.id}
              onChange={() => onChoose(licence.id)}
            />
            <span className="licence-name">{licence.name}</span>
            <span className="licence-seats">{seatsText(licence.seats)}</span>
            <span className="licence-price">{formatPrice(licence.price)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
