import { Link } from 'react-router';
import type { OwnerOrderDetail } from '../../../common/schemas/owner.ts';
import { useToast } from '../../components/toasts.tsx';
import { useResendReceipt } from './admin-api.ts';
import { CardTable, type Column, moneyColumn, timeColumn } from './data-table.tsx';
import { dateTime, money } from './format.ts';
import { ConfirmDialog, errorText, Facts, StatusBadge } from './ui.tsx';

/** The order page's parts: the order and its buyer, its lines, its history, the receipt dialog. */

type Row<K extends keyof OwnerOrderDetail> = OwnerOrderDetail[K] extends (infer R)[] ? R : never;
type Line = OwnerOrderDetail['lines'][number];

const EVENT_COLUMNS: Column<Row<'events'>>[] = [
  timeColumn('When', 'at'),
  { header: 'Event', className: 'text-nowrap', cell: (event) => event.type },
  { header: 'Outcome', cell: (event) => event.outcome },
  { header: 'Detail', className: 'small text-break', cell: (event) => event.detail ?? '' },
];
const MAIL_COLUMNS: Column<Row<'mails'>>[] = [
  timeColumn('When', 'at'),
  { header: 'Subject', className: 'text-break', cell: (mail) => mail.subject },
  { header: 'Status', cell: (mail) => mail.status },
];

export function OrderFacts({ order }: { order: OwnerOrderDetail }) {
  return (
    <div className="row g-4 mb-4">
      <div className="col-12 col-lg-6">
        <section className="card admin-card h-100">
          <h2 className="card-header h6 mb-0">Order</h2>
          <Facts
            facts={[
              ['Status', <StatusBadge key="status" status={order.status} />],
              ['Created', dateTime(order.created_at)],
              ['Paid', dateTime(order.paid_at)],
              ['Total', money(order.total)],
              ...(order.discount
                ? [['Discount', `${order.discount.code}: −${money(order.discount.amount)}`] as [string, string]]
                : []),
            ]}
          />
        </section>
      </div>
      <div className="col-12 col-lg-6">
        <section className="card admin-card h-100">
          <h2 className="card-header h6 mb-0">Buyer</h2>
          <Facts
            facts={[
              ['Name', order.name || '—'],
              [
                'E-mail',
                <Link key="email" to={`/admin/customers?query=${encodeURIComponent(order.email)}`}>
                  {order.email}
                </Link>,
                'text-break',
              ],
            ]}
          />
        </section>
      </div>
    </div>
  );
}

function LineState({ line }: { line: Line }) {
  if (line.refunded) return <span className="badge text-bg-danger">Refunded</span>;
  if (line.lapsed)
    return (
      <span className="badge text-bg-secondary" title="A purchase its upgrade price counted was refunded">
        Upgrade ended
      </span>
    );
  if (line.refunded_amount > 0)
    return <span className="badge text-bg-warning">Owned · {money(line.refunded_amount)} refunded</span>;
  return <span className="badge text-bg-light">Owned</span>;
}

/** The order's lines; `onRefundLine` (absent when the order cannot be refunded) opens a line's refund. */
export function OrderLines({
  lines,
  onRefundLine,
}: {
  lines: Line[];
  onRefundLine: ((kitId: number) => void) | undefined;
}) {
  return (
    <div className="mb-4">
      <CardTable
        title="Lines"
        rows={lines}
        rowKey={(line) => line.kit_id}
        columns={[
          { header: 'Kit', cell: (line) => line.title },
          moneyColumn('Price', 'price'),
          { header: 'State', cell: (line) => <LineState line={line} /> },
          {
            header: null,
            className: 'text-end',
            cell: (line) =>
              onRefundLine &&
              !line.refunded && (
                <button
                  type="button"
                  className="btn btn-sm btn-link text-danger p-0"
                  onClick={() => onRefundLine(line.kit_id)}
                  aria-label={`Refund ${line.title}`}
                >
                  Refund line
                </button>
              ),
          },
        ]}
      />
    </div>
  );
}

/** What the payment provider sent about the order, and the mails sent about it. */
export function OrderHistory({ order }: { order: OwnerOrderDetail }) {
  return (
    // One above the other at every width: side by side, their long details and subjects were cut off.
    <div className="row g-4">
      <div className="col-12">
        <CardTable
          title="Payment events"
          rows={order.events}
          empty="No payment event received for this order."
          small
          rowKey={(event) => `${event.at}|${event.type}|${event.outcome}`}
          columns={EVENT_COLUMNS}
        />
      </div>
      <div className="col-12">
        <CardTable
          title="Mails sent"
          rows={order.mails}
          empty="No mail sent about this order."
          small
          rowKey={(mail) => `${mail.at}|${mail.subject}`}
          columns={MAIL_COLUMNS}
        />
      </div>
    </div>
  );
}

export function ResendDialog({
  order,
  show,
  onClose,
}: {
  order: OwnerOrderDetail;
  show: boolean;
  onClose: () => void;
}) {
  const resend = useResendReceipt(order.id);
  const toast = useToast();
  const close = () => {
    onClose();
    resend.reset();
  };
  const submit = () =>
    resend.mutate(undefined, {
      onSuccess: () => {
        onClose();
        toast({ title: 'Receipt sent', body: `The receipt is on its way to ${order.email}.` });
      },
    });
  return (
    <ConfirmDialog
      show={show}
      title="Resend the receipt"
      confirmLabel="Resend Receipt"
      busy={resend.isPending}
      error={resend.isError ? errorText(resend.error, 'The receipt could not be sent.') : null}
      onConfirm={submit}
      onClose={close}
    >
      <p className="mb-0">
        Send the receipt for order {order.id} again to <strong>{order.email}</strong>?
      </p>
    </ConfirmDialog>
  );
}
