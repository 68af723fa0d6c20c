import './checkout-page.scss';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatUsd } from '../../../common/money.ts';
import { SCREEN_TITLES } from '../../../common/site.ts';
import { type CurrentUser, setCurrentUser, useCurrentUser } from '../../app/session.ts';
import { Icon } from '../../components/icon.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { useToast } from '../../components/toasts.tsx';
import { gtag } from '../../lib/analytics.ts';
import { ApiError } from '../../lib/api.ts';
import { type CartLine, cartProductIds, fetchPricedCart, type PricedCart } from '../../lib/cart/priced-cart.ts';
import { checkoutLinePrice, checkoutTotal, paymentItems, TAX_NOTE } from '../../lib/cart/totals.ts';
import { cartStore, useCart } from '../../lib/cart/use-cart.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { clearReturnPathIfAt, setReturnPath } from '../../lib/return-path.ts';
import { type OrderSnapshot, purchaseEventParams, readSnapshot, saveSnapshot, takeSnapshot } from './order-snapshot.ts';
import { openPaymentFrame } from './payments/index.ts';

export const CHECKOUT_TITLE = SCREEN_TITLES['/checkout']!;
export const PURCHASED_NOTE = 'You already purchased this item and this item is excluded from order.';
const FRAME_ID = 'checkout-frame';

type CheckoutState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'empty' }
  | { status: 'ready'; cart: PricedCart };

/**
 * The signed-in buyer's order: `POST /api/cart {products, checkout: true}` for the local cart's ids.
 * A 403 (or 401) means the session has ended: the buyer goes to login and comes back here after.
 */
function useCheckoutCart(user: CurrentUser | null): { state: CheckoutState; retry: () => void } {
  const cart = useCart();
  const navigate = useNavigate();
  const toast = useToast();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<CheckoutState>({ status: 'loading' });
  const productsKey = cartProductIds(cart).join(',');
  const userId = user?.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger
  useEffect(() => {
    if (userId === undefined) return;
    const products = productsKey ? productsKey.split(',').map(Number) : [];
    if (products.length === 0) {
      setState({ status: 'empty' });
      return;
    }
    let current = true;
    setState({ status: 'loading' });
    fetchPricedCart(products, { checkout: true })
      .then((priced) => {
        if (current) setState(priced.items.length > 0 ? { status: 'ready', cart: priced } : { status: 'empty' });
      })
      .catch((error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && (error.status === 403 || error.status === 401)) {
          setReturnPath('checkout');
          toast({
            title: 'Login Required',
            body: 'Your session has expired. Please login to continue checkout.',
            variant: 'warning',
          });
          navigate('/login');
          setCurrentUser(null);
          return;
        }
        console.warn('Could not load the order', error);
        setState({ status: 'error' });
      });
    return () => {
      current = false;
    };
  }, [userId, productsKey, attempt, navigate, toast]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}

function SignInPrompt() {
  return (
    <div className="card checkout-card checkout-signin text-center" data-testid="checkout-signin">
      <div className="card-body">
        <span className="icon-badge">
          <Icon name="lock" />
        </span>
        <h2 className="h5 fw-bold">Sign in to continue</h2>
        <p className="text-body-secondary">
          Checkout is available to signed-in customers, so your purchases land in your User Panel. Your cart stays as it
          is.
        </p>
        <Link to="/login" className="btn btn-primary" onClick={() => setReturnPath('checkout')}>
          Sign in
        </Link>
        <p className="small text-body-secondary mt-3 mb-0">
          New to Kitshop?{' '}
          <Link to="/register" onClick={() => setReturnPath('checkout')}>
            Create an account
          </Link>
        </p>
      </div>
    </div>
  );
}

function OrderLine({ item }: { item: CartLine }) {
  return (
    <li className="checkout-line" data-testid="checkout-line">
      <div className="checkout-line-text">
        <h3 className="checkout-line-title">{item.title}</h3>
        <p className="checkout-line-spot">{item.spot}</p>
        {item.purchased && (
          <p className="checkout-line-note" data-testid="purchased-note">
            <Icon name="check" size={16} /> {PURCHASED_NOTE}
          </p>
        )}
      </div>
      <span className="checkout-line-price">{formatUsd(checkoutLinePrice(item))}</span>
    </li>
  );
}

function OrderTotal({ total }: { total: number }) {
  return (
    <div className="checkout-total">
      <span>Total</span>
      <span data-testid="checkout-total">{formatUsd(total)}</span>
    </div>
  );
}

function EmptyOrder() {
  return (
    <div className="card checkout-card text-center" data-testid="checkout-empty">
      <div className="card-body">
        <span className="icon-badge">
          <Icon name="cart" />
        </span>
        <h2 className="h5 fw-bold">Your cart is empty</h2>
        <p className="text-body-secondary">Add a kit to your cart first, then come back here to pay for it.</p>
        <Link to="/#kits" className="btn btn-primary">
          Browse Kits
        </Link>
      </div>
    </div>
  );
}

/** After paying: the thank-you screen (the purchase event and the emptied cart happen in the page). */
function ThankYou() {
  return (
    <div className="card checkout-card checkout-success text-center" data-testid="checkout-success">
      <div className="card-body">
        <span className="icon-badge success-badge">
          <Icon name="check" />
        </span>
        <h1 className="checkout-success-title">Thank you! Your order is being processed.</h1>
        <p>A confirmation email is on its way to your inbox.</p>
        <p>Your purchases will appear in the User Panel within a few minutes, ready to download.</p>
        <p className="text-body-secondary">
          No email after a few minutes? Please check your spam folder or contact our support at <SupportEmail />.
        </p>
        <div className="d-flex flex-wrap justify-content-center gap-2 mt-4">
          <Link to="/user-panel" className="btn btn-primary">
            Go to User Panel
          </Link>
          <Link to="/" className="btn btn-outline-secondary">
            Continue Shopping
          </Link>
        </div>
      </div>
    </div>
  );
}

/** The order's lines, total and the Make Payment button (disabled while there is nothing to pay). */
function Order({ cart, onPay }: { cart: PricedCart; onPay: () => void }) {
  const total = checkoutTotal(cart.items);
  return (
    <div className="row g-4 align-items-start">
      <div className="col-12 col-lg-8">
        <div className="card checkout-card">
          <div className="card-body">
            <h2 className="h5 fw-bold mb-3">Your order</h2>
            <ul className="checkout-lines list-unstyled mb-0">
              {cart.items.map((item) => (
                <OrderLine key={item.id} item={item} />
              ))}
            </ul>
          </div>
        </div>
      </div>
      <div className="col-12 col-lg-4">
        <aside className="card checkout-card checkout-summary" aria-label="Payment">
          <div className="card-body">
            <OrderTotal total={total} />
            <button
              type="button"
              className="btn btn-primary btn-lg w-100"
              disabled={total <= 0 || !cart.order_id}
              onClick={onPay}
            >
              Make Payment
            </button>
            <p className="checkout-note">{TAX_NOTE}</p>
          </div>
        </aside>
      </div>
    </div>
  );
}

/** The order being paid: the frame's container, filled by the payment provider. */
type Payment = { cart: PricedCart; total: number };

function PaymentView({ payment, failed, onBack }: { payment: Payment; failed: boolean; onBack: () => void }) {
  const kitCount = paymentItems(payment.cart.items).length;
  return (
    <div className="row g-4 align-items-start">
      <div className="col-12 col-lg-8">
        {failed && (
          <div
            className="alert alert-warning d-flex flex-wrap align-items-center justify-content-between gap-2"
            role="alert"
          >
            We could not open the payment form. Please try again.
            <button type="button" className="btn btn-sm btn-outline-dark" onClick={onBack}>
              Back to order
            </button>
          </div>
        )}
        <div className="checkout-frame-box">
          <div id={FRAME_ID} className="checkout-frame" data-testid="checkout-frame" />
        </div>
      </div>
      <div className="col-12 col-lg-4">
        <aside className="card checkout-card checkout-summary" aria-label="Order summary">
          <div className="card-body">
            <p className="small text-body-secondary mb-2">
              {kitCount === 1 ? '1 kit' : `${kitCount} kits`} in this order
            </p>
            <OrderTotal total={payment.total} />
            <p className="checkout-note">{TAX_NOTE}</p>
            <Link to="/cart" className="small d-inline-block mt-2">
              Back to cart
            </Link>
          </div>
        </aside>
      </div>
    </div>
  );
}

/** Inside a frame (the sandbox form's own window) the thank-you page belongs to the whole tab. */
const isFramed = () => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
};

/**
 * 'Make Payment': the signed-in buyer's order (kits bought before cost 0 and are left out), then
 * the provider's inline frame. Back from the provider with `?status=success` and a snapshot whose
 * total is above 0: the thank-you screen, one purchase event and an emptied cart.
 */
export function CheckoutPage() {
  useTitleAndPageView(CHECKOUT_TITLE);
  const [params] = useSearchParams();
  const returned = params.get('status') === 'success';
  const [framed] = useState(isFramed);
  // Read on arrival; the effect below takes it out of storage, so a reload shows the normal page.
  const [paid] = useState<OrderSnapshot | null>(() => (returned && !framed ? readSnapshot() : null));
  const success = returned && paid !== null && paid.total > 0;
  const user = useCurrentUser();
  const { state, retry } = useCheckoutCart(success ? null : user);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [frameFailed, setFrameFailed] = useState(false);
  const opened = useRef<Payment | null>(null);

  useEffect(() => {
    clearReturnPathIfAt('checkout');
  }, []);

  useEffect(() => {
    if (!framed || !returned) return;
    try {
      window.top?.location.assign(window.location.href);
    } catch (error) {
      console.warn('Could not leave the payment frame', error);
    }
  }, [framed, returned]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival from the provider
  useEffect(() => {
    if (!returned || framed) return;
    const snapshot = takeSnapshot(); // the second run (React's development double effect) finds none
    if (!snapshot || snapshot.total <= 0) return;
    gtag('event', 'purchase', purchaseEventParams(snapshot));
    cartStore.clear();
  }, []);

  useEffect(() => {
    if (!payment || opened.current === payment || !payment.cart.order_id) return;
    opened.current = payment;
    openPaymentFrame({
      items: paymentItems(payment.cart.items),
      email: payment.cart.email,
      orderId: payment.cart.order_id,
      successUrl: `${window.location.origin}${appUrl('/checkout?status=success')}`,
      container: FRAME_ID,
    }).catch((error: unknown) => {
      console.warn('Could not open the payment frame', error);
      setFrameFailed(true);
    });
  }, [payment]);

  const pay = (cart: PricedCart) => {
    const total = checkoutTotal(cart.items);
    if (total <= 0 || !cart.order_id) return;
    // Exactly the contract's `{order_id, total}` in session storage.
    saveSnapshot({ order_id: cart.order_id, total });
    setFrameFailed(false);
    setPayment({ cart, total });
  };

  if (framed && returned) return null;

  if (success) {
    return (
      <section className="section checkout-page">
        <div className="container narrow">
          <ThankYou />
        </div>
      </section>
    );
  }

  return (
    <section className="section checkout-page">
      <div className="container">
        <header className="checkout-head">
          <h1 className="checkout-title">Make Payment</h1>
        </header>

        {!user && <SignInPrompt />}

        {user && payment && <PaymentView payment={payment} failed={frameFailed} onBack={() => setPayment(null)} />}

        {user && !payment && state.status === 'loading' && (
          <div className="checkout-loading d-flex align-items-center gap-3" role="status" aria-live="polite">
            <span className="spinner-border spinner-border-sm text-primary" aria-hidden="true" />
            Loading your order…
          </div>
        )}

        {user && !payment && state.status === 'error' && (
          <div
            className="alert alert-warning d-flex flex-wrap align-items-center justify-content-between gap-2"
            role="alert"
          >
            We could not load your order right now.
            <button type="button" className="btn btn-sm btn-outline-dark" onClick={retry}>
              Try again
            </button>
          </div>
        )}

        {user && !payment && state.status === 'empty' && <EmptyOrder />}

        {user && !payment && state.status === 'ready' && <Order cart={state.cart} onPay={() => pay(state.cart)} />}
      </div>
    </section>
  );
}
