import './cart-page.scss';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { formatUsd } from '../../../common/money.ts';
import type { CartItem, CartResponse } from '../../../common/schemas/orders.ts';
import { Icon } from '../../components/icon.tsx';
import { LineNotes, LinePrice } from '../../components/line-price.tsx';
import { BrowseKitsPrompt, LoadFailed, Loading } from '../../components/load-states.tsx';
import { cartBreakdown, TAX_NOTE } from '../../lib/cart/totals.ts';
import { cartStore, useCart } from '../../lib/cart/use-cart.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { clearReturnPathIfAt } from '../../lib/return-path.ts';
import { useCartLines } from './cart-api.ts';
import { DiscountCodeForm } from './discount-code-form.tsx';

function Line({ item, onRemove }: { item: CartItem; onRemove: (id: number) => void }) {
  const titleId = `cart-line-${item.id}-title`;
  return (
    <li className="cart-line" data-testid="cart-line">
      {item.thumbnail_url && (
        // Beside its title, which says what it shows: decorative for a screen reader. Sized by its
        // attributes (the thumbnail's 16:10), so nothing moves while it loads.
        <img className="cart-line-thumb" src={appUrl(item.thumbnail_url)} alt="" width={128} height={80} />
      )}
      <div className="cart-line-text">
        <h2 id={titleId} className="cart-line-title">
          {item.title}
        </h2>
        <p className="cart-line-spot">{item.spot}</p>
        {item.purchased && (
          <span className="badge purchased-badge" data-testid="already-purchased">
            <Icon name="check" size={14} /> Already purchased
          </span>
        )}
        <LineNotes item={item} />
      </div>
      <div className="cart-line-side">
        <LinePrice item={item} />
        <button
          type="button"
          className="btn btn-sm btn-outline-danger cart-remove"
          aria-describedby={titleId}
          onClick={() => onRemove(item.id)}
        >
          Remove
        </button>
      </div>
    </li>
  );
}

function Summary({ items, cart, codeError }: { items: CartItem[]; cart: CartResponse; codeError: string | null }) {
  const navigate = useNavigate();
  const { subtotal, excluded, upgrade, discount, total } = cartBreakdown(items);
  return (
    <aside className="card cart-summary" aria-labelledby="cart-summary-title">
      <div className="card-body">
        <h2 id="cart-summary-title" className="h5 fw-bold mb-3">
          Order summary
        </h2>
        <dl className="cart-sums">
          <div>
            <dt>Subtotal</dt>
            <dd data-testid="cart-subtotal">{formatUsd(subtotal)}</dd>
          </div>
          {excluded > 0 && (
            <div className="text-body-secondary">
              <dt>Excluded (already purchased)</dt>
              <dd data-testid="cart-excluded">−{formatUsd(excluded)}</dd>
            </div>
          )}
          {upgrade > 0 && (
            <div>
              <dt>Upgrade credit</dt>
              <dd data-testid="cart-upgrade">−{formatUsd(upgrade)}</dd>
            </div>
          )}
          {cart.discount && (
            <div className="text-success">
              <dt>Discount ({cart.discount.code})</dt>
              <dd data-testid="cart-discount">−{formatUsd(discount)}</dd>
            </div>
          )}
          <div className="cart-total">
            <dt>Total</dt>
            <dd data-testid="cart-total">{formatUsd(total)}</dd>
          </div>
        </dl>
        <DiscountCodeForm products={items.map((i) => i.id)} discount={cart.discount} refusal={codeError} />
        <button
          type="button"
          className="btn btn-primary btn-lg w-100"
          disabled={total <= 0}
          onClick={() => navigate('/checkout')}
        >
          Proceed to Checkout
        </button>
        <p className="cart-tax-note">{TAX_NOTE}</p>
      </div>
    </aside>
  );
}

function EmptyCart() {
  return (
    <div className="cart-empty text-center" data-testid="cart-empty">
      <BrowseKitsPrompt icon="cart" title="Your cart is empty" headingClass="h4 fw-bold">
        Pick a starter kit, try its live demo, and it will wait for you here.
      </BrowseKitsPrompt>
    </div>
  );
}

/**
 * The cart: the local cart's kits as the server prices them, '(n) Items', subtotal and total
 * (kits bought before are shown but left out of the total), 'Proceed to Checkout' while the total
 * is above 0, or the empty state. Removing a line updates the local cart (and the header's badge)
 * and the sums without asking the server again.
 */
export function CartPage() {
  useScreenTitleAndPageView('/cart');
  const cart = useCart();
  const { state, retry } = useCartLines();
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    clearReturnPathIfAt('cart');
  }, []);

  const remove = (id: number) => {
    cartStore.remove(id);
    // The pressed button is gone with its line: keep the keyboard user on the page.
    headingRef.current?.focus();
  };

  // Only the lines still in the local cart (a removal here or in another tab).
  const items = state.cart?.items.filter((item) => cart.items[item.id] !== undefined) ?? [];
  const isEmpty = state.status === 'ready' && items.length === 0;

  return (
    <section className="section cart-page">
      <div className="container">
        <header className="cart-head">
          <h1 className="cart-title" ref={headingRef} tabIndex={-1}>
            Your Cart
          </h1>
          {state.status === 'ready' && !isEmpty && (
            <p className="cart-count" data-testid="cart-items-count">
              ({items.length}) Items
            </p>
          )}
        </header>

        {state.status === 'loading' && <Loading className="cart-loading">Loading your cart…</Loading>}

        {state.status === 'error' && <LoadFailed onRetry={retry}>We could not load your cart right now.</LoadFailed>}

        {isEmpty && <EmptyCart />}

        {state.status === 'ready' && !isEmpty && (
          <div className="row g-4 align-items-start">
            <div className="col-12 col-lg-8">
              <ul className="cart-lines list-unstyled mb-0">
                {items.map((item) => (
                  <Line key={item.id} item={item} onRemove={remove} />
                ))}
              </ul>
            </div>
            <div className="col-12 col-lg-4">
              <Summary items={items} cart={state.cart} codeError={state.codeError} />
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
