import { Link } from 'react-router';
import type { KitSummary } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';
import { REFUND_TERMS } from '../../lib/refund-terms.ts';
import { PAY_BY_CARD, VersionLine } from './kit-card.tsx';

/**
 * What a buyer gets for the price beside it (product hero and closing banner): the current version
 * and its day, the licence in one line, the refund policy's days (its real conditions, not a
 * money-back promise) and how to pay. A home card has its shorter CardFacts.
 */
export function PurchaseFacts({ kit }: { kit: KitSummary }) {
  return (
    <div className="purchase-facts" data-testid="purchase-facts">
      <VersionLine kit={kit} />
      <p>
        <Icon name="shield" size={16} />
        <span>
          <Link to="/licence">Licence</Link>: you, for unlimited personal, commercial and client projects; no
          redistribution of the kit
        </span>
      </p>
      <p>
        <Icon name="check" size={16} />
        <span>
          Refund within {REFUND_TERMS.days} days if the kit never arrives or a critical bug is not fixed in{' '}
          {REFUND_TERMS.critical_bug_fix_days} days (<Link to="/refund-policy">refund policy</Link>)
        </span>
      </p>
      <p>
        <Icon name="card" size={16} /> {PAY_BY_CARD}
        <span className="card-brands">
          <span className="visually-hidden">: Visa, Mastercard, American Express</span>
          <span aria-hidden="true">VISA</span>
          <span aria-hidden="true">Mastercard</span>
          <span aria-hidden="true">AMEX</span>
        </span>
      </p>
    </div>
  );
}
