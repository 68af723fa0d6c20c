import { Link } from 'react-router';
import { longDate } from '../../../common/dates.ts';
import type { KitSummary } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';

/**
 * What a buyer gets for the price beside it: the current version and its day, the licence in one
 * line, the refund policy's 14 days (its real conditions, not a money-back promise) and how to pay.
 * `compact` for a home card: shorter lines, without links. Lines, not a list: a home card's only
 * list items are its features (the spec's first 3).
 */
export function PurchaseFacts({ kit, compact = false }: { kit: KitSummary; compact?: boolean }) {
  const released = kit.released_on && longDate(kit.released_on);
  return (
    <div className={`purchase-facts${compact ? ' compact' : ''}`} data-testid="purchase-facts">
      <p>
        <Icon name="download" size={16} /> Version {kit.version}
        {released && `, released ${released}`}
      </p>
      <p>
        <Icon name="shield" size={16} />
        {compact ? (
          ' Licence: unlimited personal, commercial and client projects'
        ) : (
          <span>
            <Link to="/licence">Licence</Link>: you, for unlimited personal, commercial and client projects; no
            redistribution of the kit
          </span>
        )}
      </p>
      <p>
        <Icon name="check" size={16} />
        {compact ? (
          ' 14-day refund policy'
        ) : (
          <span>
            Refund within 14 days if the kit never arrives or a critical bug is not fixed in 7 days (
            <Link to="/refund-policy">refund policy</Link>)
          </span>
        )}
      </p>
      <p>
        <Icon name="card" size={16} /> Pay by card through Paddle
        {!compact && (
          <span className="card-brands">
            <span className="visually-hidden">: Visa, Mastercard, American Express</span>
            <span aria-hidden="true">VISA</span>
            <span aria-hidden="true">Mastercard</span>
            <span aria-hidden="true">AMEX</span>
          </span>
        )}
      </p>
    </div>
  );
}
