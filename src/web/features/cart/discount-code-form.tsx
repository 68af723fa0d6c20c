import { type FormEvent, useId, useState } from 'react';
import { formatUsd } from '../../../common/money.ts';
import type { CartDiscount } from '../../../common/schemas/orders.ts';
import { discountCodeStore } from '../../lib/cart/discount-code.ts';
import { fetchPricedCart, isCodeRefusal } from '../../lib/cart/priced-cart.ts';

/**
 * The cart's `Discount Code` field and `Apply` button. Apply asks the server to price the cart
 * with the code first: a refused code shows the server's reason under the field and changes
 * nothing; an accepted one is remembered, and the cart is priced with it. An applied code shows
 * what it took off, with a button to take it off again.
 */
export function DiscountCodeForm({
  products,
  discount,
  refusal,
}: {
  products: number[];
  discount: CartDiscount | null | undefined;
  /** Why the remembered code (from a link, say) was refused when the cart was priced. */
  refusal: string | null;
}) {
  const fieldId = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const message = error ?? refusal;

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const code = text.trim();
    if (!code) {
      setError('Enter a discount code.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const priced = await fetchPricedCart({ products, discount_code: code });
      discountCodeStore.set(priced.discount?.code ?? code);
      setText('');
    } catch (failure) {
      setError(isCodeRefusal(failure) ? (failure as Error).message : 'We could not check the code. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  if (discount) {
    return (
      <div className="discount-applied" data-testid="discount-applied">
        <span>
          Code <strong>{discount.code}</strong> applied: −{formatUsd(discount.amount)}
        </span>
        <button type="button" className="btn btn-link btn-sm p-0" onClick={() => discountCodeStore.clear()}>
          Remove code
        </button>
      </div>
    );
  }

  return (
    <form className="discount-form" onSubmit={apply} noValidate>
      <label htmlFor={fieldId} className="form-label small fw-semibold">
        Discount Code
      </label>
      <div className="input-group">
        <input
          id={fieldId}
          className={message ? 'form-control is-invalid' : 'form-control'}
          value={text}
          maxLength={40}
          autoComplete="off"
          aria-describedby={message ? `${fieldId}-error` : undefined}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="btn btn-outline-primary" disabled={busy}>
          Apply
        </button>
      </div>
      {message && (
        <p id={`${fieldId}-error`} className="discount-error" role="alert">
          {message}
        </p>
      )}
    </form>
  );
}
