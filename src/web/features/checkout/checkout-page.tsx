import './checkout-page.scss';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { formatUsd } from '../../../common/money.ts';
import type { CartItem, CartResponse } from '../../../common/schemas/orders.ts';
import { type CurrentUser, setCurrentUser, useCurrentUser } from '../../app/session.ts';
import { Icon } from '../../components/icon.tsx';
import { LineNotes } from '../../components/line-price.tsx';
import { BrowseKitsPrompt, LoadFailed, Loading } from '../../components/load-states.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { useToast } from '../../components/toasts.tsx';
import { gtag } from '../../lib/analytics.ts';
import { ApiError } from '../../lib/api.ts';
import { useDiscountCode } from '../../lib/cart/discount-code.ts';
import { cartProductIds, fetchCartWithCode } from '../../lib/cart/priced-cart.ts';
import { cartBreakdown, checkoutLinePrice, checkoutTotal, paymentItems, TAX_NOTE } from '../../lib/cart/totals.ts';
import { cartStore, useCart } from '../../lib/cart/use-cart.ts';
import { useFreshQuery } from '../../lib/fresh-query.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { clearPendingActivation, type PendingActivation, readPendingActivation } from '../../lib/pending-activation.ts';
import { clearReturnPathIfAt, setReturnPath } from '../../lib/return-path.ts';
import { type BusinessChoice, CheckoutBusinessSection, NO_BUSINESS, prepareBusiness } from './checkout-business.tsx';
import { OrderKits, useOrderKits } from './order-kits.tsx';
import { type OrderSnapshot, purchaseEventParams, readSnapshot, saveSnapshot, takeSnapshot } from './order-snapshot.ts';
import { openPaymentFrame, type CheckoutBusiness as PaymentBusiness } from './payments/index.ts';

export const PURCHASED_NOTE = 'You already purchased this item and this item is excluded from order.';
const FRAME_ID = 'checkout-frame';

/**
 * The signed-in buyer's order: `POST /api/cart {products, checkout: true}` for the local cart's ids,
 * read afresh on each visit and whenever the local cart changes. A 403 (or 401) means the session
 * has ended: the buyer goes to login and comes back here after.
 */
function useCheckoutOrder(user: CurrentUser | null) {
  const cart = useCart();
  const navigate = useNavigate();
  const toast = useToast();
  const products = cartProductIds(cart);
  const code = useDiscountCode();
  const userId = user?.id;
  const { query, retry } = useFreshQuery(
    ['checkout', userId, products, code],
    () => fetchCartWithCode({ products, checkout: true }, code),
    userId !== undefined && products.length > 0,
  );
  const { error } = query;
  useEffect(() => {
    if (!error) return;
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
  }, [error, navigate, toast]);
  return { empty: products.length === 0, query, retry };
}

/** The centred card of the screens that only say something (sign in first, empty cart, thank you). */
function MessageCard({ testId, className, children }: { testId: string; className?: string; children: ReactNode }) {
  return (
    <div className={['card checkout-card', className, 'text-center'].filter(Boolean).join(' ')} data-testid={testId}>
      <div className="card-body">{children}</div>
    </div>
  );
}

/** Signed out: a card with what to do, whose button signs in and comes back here. */
function SignedOutCard({
  icon,
  title,
  signInLabel,
  testId,
  children,
  footer,
}: {
  icon: 'lock' | 'mail';
  title: string;
  signInLabel: string;
  testId: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <MessageCard testId={testId} className="checkout-signin">
      <span className="icon-badge">
        <Icon name={icon} />
      </span>
      <h2 className="h5 fw-bold">{title}</h2>
      {children}
      <Link to="/login" className="btn btn-primary" onClick={() => setReturnPath('checkout')}>
        {signInLabel}
      </Link>
      <p className="small text-body-secondary mt-3 mb-0">{footer}</p>
    </MessageCard>
  );
}

function SignInPrompt() {
  return (
    <SignedOutCard
      icon="lock"
      title="Sign in to continue"
      signInLabel="Sign in"
      testId="checkout-signin"
      footer={
        <>
          New to Kitshop?{' '}
          <Link to="/register" onClick={() => setReturnPath('checkout')}>
            Create an account
          </Link>
        </>
      }
    >
      <p className="text-body-secondary">
        Checkout is available to signed-in customers, so your purchases land in your User Panel. Your cart stays as it
        is.
      </p>
    </SignedOutCard>
  );
}

/**
 * Signed out, right after signing up here: what happened and what to do next, instead of the sign-in
 * prompt (the spec's own toast and message on the sign-up page pass within a second).
 */
function ActivationPrompt({ email }: { email: string }) {
  return (
    <SignedOutCard
      icon="mail"
      title="Check your email to activate your account"
      signInLabel="Activated? Sign in"
      testId="checkout-activate"
      footer="No email after a few minutes? Check your spam folder, or sign in: we send a new link to an address that is not activated yet."
    >
      <p>
        Your account has been created. We sent an activation link to <strong>{email}</strong>.
      </p>
      <p className="text-body-secondary">
        Open it in this browser: it signs you in and brings you straight back here to pay. Your cart stays as it is.
      </p>
    </SignedOutCard>
  );
}

/** Back from the activation link (or signed in after it): the address is verified, the order is below. */
function VerifiedNotice() {
  return (
    <div className="alert alert-success d-flex align-items-center gap-2" role="status" data-testid="checkout-verified">
      <Icon name="check" />
      <span>
        <strong>Your email address is verified</strong> and you are signed in. Your order is below, ready to pay.
      </span>
    </div>
  );
}

function OrderLine({ item }: { item: CartItem }) {
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
        <LineNotes item={item} />
      </div>
      <span className="checkout-line-price">
        {checkoutLinePrice(item) < (item.upgrade?.price ?? item.original_price ?? item.price) && (
          <del className="cart-line-was">{formatUsd(item.upgrade?.price ?? item.original_price ?? item.price)}</del>
        )}
        {formatUsd(checkoutLinePrice(item))}
      </span>
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
    <MessageCard testId="checkout-empty">
      <BrowseKitsPrompt icon="cart" title="Your cart is empty" headingClass="h5 fw-bold">
        Add a kit to your cart first, then come back here to pay for it.
      </BrowseKitsPrompt>
    </MessageCard>
  );
}

/**
 * After paying: the thank-you screen (the purchase event and the emptied cart happen in the page),
 * and below the spec's texts the order's kits, ready to download as soon as they are granted.
 */
function ThankYou({ orderId }: { orderId: string }) {
  const kits = useOrderKits(orderId);
  return (
    <MessageCard testId="checkout-success" className="checkout-success">
      <span className="icon-badge success-badge">
        <Icon name="check" />
      </span>
      <h1 className="checkout-success-title">Thank you! Your order is being processed.</h1>
      <p>A confirmation email is on its way to your inbox.</p>
      {/* Once the Download buttons are below, no promise of minutes beside them. */}
      <p>
        {kits.state === 'granted'
          ? 'Your purchases are in the User Panel, ready to download.'
          : 'Your purchases will appear in the User Panel within minutes, ready to download.'}
      </p>
      <p className="text-body-secondary">
        No email after a few minutes? Please check your spam folder or contact our support at <SupportEmail />.
      </p>
      <OrderKits kits={kits} />
      <div className="d-flex flex-wrap justify-content-center gap-2 mt-4">
        <Link to="/user-panel" className="btn btn-primary">
          Go to User Panel
        </Link>
        <Link to="/" className="btn btn-outline-secondary">
          Continue Shopping
        </Link>
      </div>
    </MessageCard>
  );
}

/** The code applied to the order and what it took off, or why a remembered code was dropped. */
function OrderDiscount({ cart, codeError }: { cart: CartResponse; codeError: string | null }) {
  const { discount } = cartBreakdown(cart.items);
  return (
    <>
      {cart.discount && (
        <div className="checkout-discount text-success" data-testid="checkout-discount">
          <span>Discount ({cart.discount.code})</span>
          <span>−{formatUsd(discount)}</span>
        </div>
      )}
      {codeError && (
        <p className="discount-error" role="alert">
          {codeError} The order is priced without it.
        </p>
      )}
    </>
  );
}

/** The order's lines, total and the Make Payment button (disabled while there is nothing to pay). */
function Order({
  cart,
  codeError,
  onPay,
  business,
  busy,
}: {
  cart: CartResponse;
  codeError: string | null;
  onPay: () => void;
  /** `Buying for a business`, under the order's lines. */
  business: ReactNode;
  busy: boolean;
}) {
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
        {business}
      </div>
      <div className="col-12 col-lg-4">
        <aside className="card checkout-card checkout-summary" aria-label="Payment">
          <div className="card-body">
            <OrderDiscount cart={cart} codeError={codeError} />
            <OrderTotal total={total} />
            <button
              type="button"
              className="btn btn-primary btn-lg w-100"
              disabled={total <= 0 || !cart.order_id || busy}
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
type Payment = { cart: CartResponse; total: number; business?: PaymentBusiness };

/** Where the checkout stands: every screen it can show, and what that screen needs. */
type CheckoutStage =
  /** Back from the provider inside the sandbox frame: the whole tab goes to this address instead. */
  | { kind: 'leaving-frame' }
  /** Back from the provider with a snapshot whose total is above 0. */
  | { kind: 'thank-you'; orderId: string }
  | { kind: 'signed-out' }
  | { kind: 'loading' }
  | { kind: 'load-failed' }
  | { kind: 'empty' }
  | { kind: 'order'; cart: CartResponse; codeError: string | null }
  | { kind: 'paying'; payment: Payment; frameFailed: boolean };

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

/**
 * A sign-up made here and waiting for its activation (lib/pending-activation.ts): signed out, the
 * page says to check the e-mail; signed in (through the mailed link, which also says so in the
 * navigation state, or a sign-in after it) the address is verified, and the reminder is spent.
 * A sign-in with another account (the order's e-mail differs) shows no such word.
 */
function useActivationNotice(user: CurrentUser | null, orderEmail: string | null | undefined) {
  const { state } = useLocation();
  const [stored] = useState(readPendingActivation);
  const pending: PendingActivation | null = stored?.returnPath === 'checkout' ? stored : null;
  useEffect(() => {
    if (user && stored) clearPendingActivation();
  }, [user, stored]);
  const arrivedVerified = (state as { emailVerified?: unknown } | null)?.emailVerified === true;
  const sameBuyer = !orderEmail || orderEmail.toLowerCase() === pending?.email.toLowerCase();
  return { pending, verified: Boolean(user) && (arrivedVerified || (pending !== null && sameBuyer)) };
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
  useScreenTitleAndPageView('/checkout');
  const [params] = useSearchParams();
  const returned = params.get('status') === 'success';
  const [framed] = useState(isFramed);
  // Read on arrival; the effect below takes it out of storage, so a reload shows the normal page.
  const [paid] = useState<OrderSnapshot | null>(() => (returned && !framed ? readSnapshot() : null));
  const success = returned && paid !== null && paid.total > 0;
  const user = useCurrentUser();
  const order = useCheckoutOrder(success ? null : user);
  const [paying, setPaying] = useState<{ payment: Payment; frameFailed: boolean } | null>(null);
  const opened = useRef<Payment | null>(null);
  const [business, setBusiness] = useState<BusinessChoice>(NO_BUSINESS);
  const [preparing, setPreparing] = useState(false);
  const activation = useActivationNotice(user, order.query.data?.cart.email);

  const stage: CheckoutStage =
    framed && returned
      ? { kind: 'leaving-frame' }
      : success
        ? { kind: 'thank-you', orderId: paid.order_id }
        : !user
          ? { kind: 'signed-out' }
          : paying
            ? { kind: 'paying', ...paying }
            : order.empty
              ? { kind: 'empty' }
              : order.query.isError
                ? { kind: 'load-failed' }
                : !order.query.isSuccess
                  ? { kind: 'loading' }
                  : order.query.data.cart.items.length === 0
                    ? { kind: 'empty' }
                    : { kind: 'order', ...order.query.data };

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

  const payment = paying?.payment;
  useEffect(() => {
    if (!payment || opened.current === payment || !payment.cart.order_id) return;
    opened.current = payment;
    openPaymentFrame({
      items: paymentItems(payment.cart.items),
      email: payment.cart.email,
      orderId: payment.cart.order_id,
      discountId: payment.cart.discount?.paddle_discount_id ?? undefined,
      transactionId: payment.cart.transaction_id ?? undefined,
      business: payment.business,
      successUrl: `${window.location.origin}${appUrl('/checkout?status=success')}`,
      container: FRAME_ID,
    }).catch((error: unknown) => {
      console.warn('Could not open the payment frame', error);
      setPaying((current) => (current?.payment === payment ? { payment, frameFailed: true } : current));
    });
  }, [payment]);

  const pay = async (cart: CartResponse) => {
    const total = checkoutTotal(cart.items);
    if (total <= 0 || !cart.order_id || preparing) return;
    setPreparing(true);
    const prepared = await prepareBusiness(cart.order_id, business).finally(() => setPreparing(false));
    setBusiness(prepared.choice);
    if (!prepared.ok) return;
    // Exactly the contract's `{order_id, total}` in session storage.
    saveSnapshot({ order_id: cart.order_id, total, ...(cart.discount ? { coupon: cart.discount.code } : {}) });
    setPaying({ payment: { cart, total, business: prepared.business }, frameFailed: false });
  };

  if (stage.kind === 'leaving-frame') return null;

  if (stage.kind === 'thank-you') {
    return (
      <section className="section checkout-page">
        <div className="container narrow">
          <ThankYou orderId={stage.orderId} />
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
        {activation.verified && stage.kind !== 'signed-out' && <VerifiedNotice />}
        {stage.kind === 'signed-out' &&
          (activation.pending ? <ActivationPrompt email={activation.pending.email} /> : <SignInPrompt />)}
        {stage.kind === 'paying' && (
          <PaymentView payment={stage.payment} failed={stage.frameFailed} onBack={() => setPaying(null)} />
        )}
        {stage.kind === 'loading' && <Loading className="checkout-loading">Loading your order…</Loading>}
        {stage.kind === 'load-failed' && (
          <LoadFailed onRetry={order.retry}>We could not load your order right now.</LoadFailed>
        )}
        {stage.kind === 'empty' && <EmptyOrder />}
        {stage.kind === 'order' && (
          <Order
            cart={stage.cart}
            codeError={stage.codeError}
            onPay={() => void pay(stage.cart)}
            busy={preparing}
            business={<CheckoutBusinessSection choice={business} onChange={setBusiness} busy={preparing} />}
          />
        )}
      </div>
    </section>
  );
}
