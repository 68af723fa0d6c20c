import { formatUsd } from '../../common/money.ts';
import type { CartItem } from '../../common/schemas/orders.ts';

/** A cart line's price: what is paid, with the kit's own price struck through when a code or an upgrade lowered it. */
export function LinePrice({ item }: { item: CartItem }) {
  const original = item.original_price ?? item.price;
  const excluded = item.purchased || Boolean(item.included_in);
  return (
    <span className={excluded ? 'cart-line-price is-excluded' : 'cart-line-price'}>
      {!excluded && item.price < original && (
        <del className="cart-line-was" data-testid="line-original-price">
          {formatUsd(original)}
        </del>
      )}
      <span data-testid="line-price">{formatUsd(excluded ? original : item.price)}</span>
    </span>
  );
}

/** Why a line costs what it does: its upgrade price and the reason, or the bundle that covers it. */
export function LineNotes({ item }: { item: CartItem }) {
  return (
    <>
      {item.upgrade && !item.purchased && (
        <p className="cart-line-upgrade" data-testid="upgrade-note">
          <strong>Upgrade price {formatUsd(item.upgrade.price)}</strong>: {item.upgrade.reason}
        </p>
      )}
      {item.included_in && (
        <p className="cart-line-upgrade" data-testid="included-note">
          Included in {item.included_in}: left out of the order.
        </p>
      )}
    </>
  );
}
