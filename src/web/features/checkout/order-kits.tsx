import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { PurchaseItem, PurchasesResponse } from '../../../common/schemas/accounts.ts';
import type { OrderResponse } from '../../../common/schemas/orders.ts';
import { DownloadLink, SetupGuideLink } from '../../components/kit-links.tsx';
import { Loading } from '../../components/load-states.tsx';
import { apiGet, apiPost } from '../../lib/api.ts';

/** How often, and for how long, the success screen looks for the order's kits in the purchases. */
const GRANT_POLL_MS = 1000;
const GRANT_WAIT_MS = 30_000;

const fetchOrder = (orderId: string) => apiGet<OrderResponse>(`/api/orders/${encodeURIComponent(orderId)}`);
const fetchPurchases = () => apiPost<PurchasesResponse>('/api/purchases');

export type OrderKitLine = OrderResponse['items'][number] & { purchase: PurchaseItem | null };

/** Each kit of the order, with its purchase once it is granted (null until then). */
export function orderKitLines(items: OrderResponse['items'], purchases: PurchaseItem[] | undefined): OrderKitLine[] {
  return items.map((item) => ({ ...item, purchase: purchases?.find((p) => p.id === item.id) ?? null }));
}

/**
 * The order's kits (`GET /api/orders/{id}`, once) and the purchases, read every second until they
 * include every kit of the order (the payment's webhook usually grants them within a second), for
 * at most 30 seconds.
 */
export function useOrderKits(orderId: string) {
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setGaveUp(true), GRANT_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const order = useQuery({
    queryKey: ['order', orderId],
    queryFn: () => fetchOrder(orderId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: 1,
  });
  const items = order.data?.items ?? [];
  const allGranted = (purchases: PurchaseItem[] | undefined) =>
    items.length > 0 && orderKitLines(items, purchases).every((line) => line.purchase);
  const purchases = useQuery({
    queryKey: ['order-purchases', orderId],
    queryFn: fetchPurchases,
    enabled: items.length > 0,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => (gaveUp || allGranted(query.state.data?.items) ? false : GRANT_POLL_MS),
  });
  const granted = allGranted(purchases.data?.items);
  return {
    failed: order.isError,
    lines: orderKitLines(items, purchases.data?.items),
    state: granted ? 'granted' : gaveUp ? 'late' : 'waiting',
  } as const;
}

function KitLinks({ line, purchase }: { line: OrderKitLine; purchase: PurchaseItem }) {
  const titleId = `order-kit-${line.id}-title`;
  return (
    <div className="order-kit-links">
      <DownloadLink purchaseId={purchase.id} titleId={titleId} />
      <SetupGuideLink sefId={purchase.sef_id} titleId={titleId} />
    </div>
  );
}

/**
 * Below the thank-you texts: the order's kits, each with its download and setup guide as soon as
 * it is granted; meanwhile a note that they are being prepared. Nothing when the order cannot be
 * read (the spec's texts already point to the User Panel).
 */
export function OrderKits({ kits }: { kits: ReturnType<typeof useOrderKits> }) {
  const { failed, lines, state } = kits;
  if (failed) return null;
  return (
    <section className="order-kits" aria-labelledby="order-kits-title">
      <h2 id="order-kits-title" className="order-kits-title">
        Your kits
      </h2>
      {state === 'waiting' && (
        <Loading className="order-kits-state">Preparing your downloads… this usually takes a second.</Loading>
      )}
      {state === 'late' && (
        <p className="order-kits-state" role="status">
          Your kits are still being prepared. They will appear in your User Panel within a few minutes.
        </p>
      )}
      {lines.length > 0 && (
        <ul className="order-kits-list list-unstyled">
          {lines.map((line) => (
            <li key={line.id} className="order-kit">
              <span id={`order-kit-${line.id}-title`} className="order-kit-title">
                {line.title}
              </span>
              {line.purchase ? (
                <KitLinks line={line} purchase={line.purchase} />
              ) : (
                <span className="order-kit-pending">Preparing…</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
