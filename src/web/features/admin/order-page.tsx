import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { OwnerOrderDetail } from '../../../common/schemas/owner.ts';
import { Check } from '../../components/field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useOrder, useRefund, useResendReceipt } from './admin-api.ts';
import { CardTable, type Column, moneyColumn, timeColumn } from './data-table.tsx';
import { dateTime, money, recordId } from './format.ts';
import { ConfirmDialog, errorText, Facts, PageHeader, QueryState, StatusBadge, TextArea } from './ui.tsx';

type Row<K extends keyof OwnerOrderDetail> = OwnerOrderDetail[K] extends (infer R)[] ? R : never;

const EVENT_COLUMNS: Column<Row<'events'>>[] = [
  timeColumn('When', 'at'),
  { header: 'Event', className: 'text-nowrap', cell: (event) => event.type },
  { header: 'Outcome', cell: (event) => event.outcome },
  { header: 'Detail', className: 'small', cell: (event) => event.detail ?? '' },
];
const MAIL_COLUMNS: Column<Row<'mails'>>[] = [
  timeColumn('When', 'at'),
  { header: 'Subject', cell: (mail) => mail.subject },
  { header: 'Status', cell: (mail) => mail.status },
];

type Line = OwnerOrderDetail['lines'][number];
const cents = (dollars: number) => Math.round(dollars * 100);
/** What a refund of the line in full gives back: what earlier refunds left. */
const leftCents = (line: Line) => cents(line.price) - cents(line.refunded_amount);

/** The upgrades a refund of these lines ends: what stays paid of what they counted falls below their credit. */
function upgradesEnded(upgrades: OwnerOrderDetail['upgrades'], refunding: Line[]) {
  return upgrades.filter((u) => {
    const taken = refunding.filter((l) => u.kit_ids.includes(l.kit_id)).reduce((sum, l) => sum + leftCents(l), 0);
    return taken > 0 && cents(u.covered) - taken < cents(u.credit);
  });
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

type Dialog = null | 'refund' | 'resend';
type Scope = 'whole' | 'lines';
const SCOPES: [Scope, string][] = [
  ['whole', 'Whole order'],
  ['lines', 'Chosen lines'],
];

export default function OrderPage() {
  const id = recordId(useLocation().pathname);
  const order = useOrder(id);
  const refund = useRefund(id);
  const resend = useResendReceipt(id);
  const toast = useToast();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [scope, setScope] = useState<Scope>('whole');
  const [chosen, setChosen] = useState<number[]>([]);
  const reasonState = useState('');
  const [reason, setReason] = reasonState;
  const [requested, setRequested] = useState(false);

  const data = order.data;
  const open = data?.lines.filter((line) => !line.refunded) ?? [];
  const refundable = data && (data.status === 'paid' || data.status === 'partially_refunded') && open.length > 0;
  const refunding = scope === 'whole' ? open : open.filter((l) => chosen.includes(l.kit_id));
  const refundCents = refunding.reduce((sum, line) => sum + leftCents(line), 0);
  const refundTotal = refundCents / 100;
  const ending = data ? upgradesEnded(data.upgrades, refunding) : [];

  const close = () => {
    setDialog(null);
    refund.reset();
    resend.reset();
  };
  const openRefund = (kitId?: number) => {
    setScope(kitId === undefined ? 'whole' : 'lines');
    setChosen(kitId === undefined ? [] : [kitId]);
    setReason('');
    setDialog('refund');
  };
  const submitRefund = () =>
    refund.mutate(
      { reason: reason.trim(), ...(scope === 'lines' ? { kit_ids: chosen } : {}) },
      {
        onSuccess: (answer) => {
          setDialog(null);
          if (answer.refund_requested) {
            setRequested(true);
            toast({ title: 'Refund requested', body: 'Access ends when the payment provider approves it.' });
          } else {
            toast({ title: 'Refund done', body: `${money(refundTotal)} refunded on order ${id}.` });
          }
        },
      },
    );
  const submitResend = () =>
    resend.mutate(undefined, {
      onSuccess: () => {
        setDialog(null);
        toast({ title: 'Receipt sent', body: `The receipt is on its way to ${data?.email}.` });
      },
    });

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
              onClick={() => openRefund()}
            >
              Refund
            </button>
            <button
              type="button"
              className="btn btn-outline-primary"
              disabled={data.status === 'pending'}
              onClick={() => setDialog('resend')}
            >
              Resend Receipt
            </button>
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
          <div className="row g-4 mb-4">
            <div className="col-12 col-lg-6">
              <section className="card admin-card h-100">
                <h2 className="card-header h6 mb-0">Order</h2>
                <Facts
                  facts={[
                    ['Status', <StatusBadge key="status" status={data.status} />],
                    ['Created', dateTime(data.created_at)],
                    ['Paid', dateTime(data.paid_at)],
                    ['Total', money(data.total)],
                    ...(data.discount
                      ? [['Discount', `${data.discount.code}: −${money(data.discount.amount)}`] as [string, string]]
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
                    ['Name', data.name || '—'],
                    [
                      'E-mail',
                      <Link key="email" to={`/admin/customers?query=${encodeURIComponent(data.email)}`}>
                        {data.email}
                      </Link>,
                      'text-break',
                    ],
                  ]}
                />
              </section>
            </div>
          </div>

          <div className="mb-4">
            <CardTable
              title="Lines"
              rows={data.lines}
              rowKey={(line) => line.kit_id}
              columns={[
                { header: 'Kit', cell: (line) => line.title },
                moneyColumn('Price', 'price'),
                { header: 'State', cell: (line) => <LineState line={line} /> },
                {
                  header: null,
                  className: 'text-end',
                  cell: (line) =>
                    refundable &&
                    !line.refunded && (
                      <button
                        type="button"
                        className="btn btn-sm btn-link text-danger p-0"
                        onClick={() => openRefund(line.kit_id)}
                        aria-label={`Refund ${line.title}`}
                      >
                        Refund line
                      </button>
                    ),
                },
              ]}
            />
          </div>

          <div className="row g-4">
            <div className="col-12 col-xl-7">
              <CardTable
                title="Payment events"
                rows={data.events}
                empty="No payment event received for this order."
                small
                rowKey={(event) => `${event.at}|${event.type}|${event.outcome}`}
                columns={EVENT_COLUMNS}
              />
            </div>
            <div className="col-12 col-xl-5">
              <CardTable
                title="Mails sent"
                rows={data.mails}
                empty="No mail sent about this order."
                small
                rowKey={(mail) => `${mail.at}|${mail.subject}`}
                columns={MAIL_COLUMNS}
              />
            </div>
          </div>

          <ConfirmDialog
            show={dialog === 'refund'}
            title={`Refund order ${id}`}
            confirmLabel={`Refund ${money(refundTotal)}`}
            variant="danger"
            busy={refund.isPending}
            error={refund.isError ? errorText(refund.error, 'The refund failed.') : null}
            disabled={!reason.trim() || (scope === 'lines' && chosen.length === 0)}
            onConfirm={submitRefund}
            onClose={close}
          >
            <fieldset className="mb-3">
              <legend className="form-label fs-6">What to refund</legend>
              {SCOPES.map(([value, label]) => (
                <Check
                  key={value}
                  id={`refund-${value}`}
                  label={label}
                  type="radio"
                  checked={scope === value}
                  onChange={() => setScope(value)}
                />
              ))}
              {scope === 'lines' && (
                <div className="ms-4 mt-2">
                  {open.map((line) => (
                    <Check
                      key={line.kit_id}
                      id={`refund-line-${line.kit_id}`}
                      label={`${line.title} (${money(leftCents(line) / 100)})`}
                      type="checkbox"
                      checked={chosen.includes(line.kit_id)}
                      onChange={(e) =>
                        setChosen((current) =>
                          e.target.checked ? [...current, line.kit_id] : current.filter((k) => k !== line.kit_id),
                        )
                      }
                    />
                  ))}
                </div>
              )}
            </fieldset>
            {ending.length > 0 && (
              <div className="alert alert-warning small" role="status">
                {ending.map((u) => (
                  <p key={u.order_id} className="mb-1">
                    This also ends <strong>{u.title}</strong> (order{' '}
                    <Link to={`/admin/orders/${encodeURIComponent(u.order_id)}`}>{u.order_id}</Link>, bought for{' '}
                    {money(u.price)} as an upgrade that counted this purchase): the buyer loses it and its kits, unless
                    something else pays for them.
                  </p>
                ))}
                <p className="mb-0">What was paid for the upgrade stays paid: refund that order too to give it back.</p>
              </div>
            )}
            <TextArea
              id="refund-reason"
              label="Reason"
              required
              state={reasonState}
              hint="The buyer loses the kits refunded at once: purchases, downloads and setup guide. A bundle bought at an upgrade price that counted them ends too."
            />
          </ConfirmDialog>

          <ConfirmDialog
            show={dialog === 'resend'}
            title="Resend the receipt"
            confirmLabel="Resend Receipt"
            busy={resend.isPending}
            error={resend.isError ? errorText(resend.error, 'The receipt could not be sent.') : null}
            onConfirm={submitResend}
            onClose={close}
          >
            <p className="mb-0">
              Send the receipt for order {id} again to <strong>{data.email}</strong>?
            </p>
          </ConfirmDialog>
        </>
      )}
    </>
  );
}
