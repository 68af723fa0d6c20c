import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { appUrl } from '../../lib/initial-data.ts';
import { useOrder } from './admin-api.ts';
import { recordId } from './format.ts';
import { OrderLicences } from './order-licences.tsx';
import { OrderFacts, OrderHistory, OrderLines, ResendDialog } from './order-parts.tsx';
import { RefundDialog, type RefundStart } from './order-refund-dialog.tsx';
import { TeamSeats } from './team-seats.tsx';
import { PageHeader, QueryState } from './ui.tsx';

export default function OrderPage() {
  const id = recordId(useLocation().pathname);
  const order = useOrder(id);
  const [refundStart, setRefundStart] = useState<RefundStart | null>(null);
  const [resending, setResending] = useState(false);
  const [requested, setRequested] = useState(false);

  const data = order.data;
  const refundable =
    data &&
    (data.status === 'paid' || data.status === 'partially_refunded') &&
    data.lines.some((line) => !line.refunded);

  return (
    <>
      <p className="mb-2">
        <Link to="/admin/orders">← Orders</Link>
      </p>
      <PageHeader title={`Order ${id}`}>
        {data && (
          <>
            <button
              type="button"
              className="btn btn-outline-danger"
              disabled={!refundable}
              onClick={() => setRefundStart({})}
            >
              Refund
            </button>
            <button
              type="button"
              className="btn btn-outline-primary"
              disabled={data.status === 'pending'}
              onClick={() => setResending(true)}
            >
              Resend Receipt
            </button>
            {data.paid_at && data.status !== 'flagged' && (
              <a
                className="btn btn-outline-secondary"
                href={appUrl(`/api/admin/orders/${encodeURIComponent(data.id)}/invoice`)}
                download
              >
                Invoice
              </a>
            )}
          </>
        )}
      </PageHeader>
      <QueryState query={order} label="the order" />
      {data && (
        <>
          {(requested || data.refund_requested) && (
            <div className="alert alert-info" role="status">
              Refund requested: the kits stay with the buyer until the payment provider approves the refund.
            </div>
          )}
          <OrderFacts order={data} />
          <OrderLines lines={data.lines} onRefundLine={refundable ? (kitId) => setRefundStart({ kitId }) : undefined} />
          <OrderLicences orderId={data.id} />
          <TeamSeats teams={data.teams} />
          <OrderHistory order={data} />
          <RefundDialog
            order={data}
            start={refundStart}
            onClose={() => setRefundStart(null)}
            onRequested={() => setRequested(true)}
          />
          <ResendDialog order={data} show={resending} onClose={() => setResending(false)} />
        </>
      )}
    </>
  );
}
