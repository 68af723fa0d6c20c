import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useToast } from '../../components/toasts.tsx';
import { useOrder, useRefund, useResendReceipt } from './admin-api.ts';
import { dateTime, money, recordId } from './format.ts';
import { ConfirmDialog, EmptyState, errorText, PageHeader, QueryState, StatusBadge, TableCard } from './ui.tsx';

type Dialog = null | 'refund' | 'resend';

export default function OrderPage() {
  const id = recordId(useLocation().pathname);
  const order = useOrder(id);
  const refund = useRefund(id);
  const resend = useResendReceipt(id);
  const toast = useToast();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [scope, setScope] = useState<'whole' | 'lines'>('whole');
  const [chosen, setChosen] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [requested, setRequested] = useState(false);

  const data = order.data;
  const open = data?.lines.filter((line) => !line.refunded) ?? [];
  const refundable = data && (data.status === 'paid' || data.status === 'partially_refunded') && open.length > 0;
  const refundTotal =
    scope === 'whole'
      ? open.reduce((sum, line) => sum + line.price, 0)
      : open.filter((l) => chosen.includes(l.kit_id)).reduce((sum, l) => sum + l.price, 0);

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
                <dl className="card-body admin-facts mb-0">
                  <dt>Status</dt>
                  <dd>
                    <StatusBadge status={data.status} />
                  </dd>
                  <dt>Created</dt>
                  <dd>{dateTime(data.created_at)}</dd>
                  <dt>Paid</dt>
                  <dd>{dateTime(data.paid_at)}</dd>
                  <dt>Total</dt>
                  <dd>{money(data.total)}</dd>
                </dl>
              </section>
            </div>
            <div className="col-12 col-lg-6">
              <section className="card admin-card h-100">
                <h2 className="card-header h6 mb-0">Buyer</h2>
                <dl className="card-body admin-facts mb-0">
                  <dt>Name</dt>
                  <dd>{data.name || '—'}</dd>
                  <dt>E-mail</dt>
                  <dd className="text-break">
                    <Link to={`/admin/customers?query=${encodeURIComponent(data.email)}`}>{data.email}</Link>
                  </dd>
                </dl>
              </section>
            </div>
          </div>

          <div className="mb-4">
            <TableCard title="Lines">
              <table className="table admin-table mb-0">
                <thead>
                  <tr>
                    <th scope="col">Kit</th>
                    <th scope="col" className="text-end">
                      Price
                    </th>
                    <th scope="col">State</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.lines.map((line) => (
                    <tr key={line.kit_id}>
                      <td>{line.title}</td>
                      <td className="text-end">{money(line.price)}</td>
                      <td>
                        {line.refunded ? (
                          <span className="badge text-bg-danger">Refunded</span>
                        ) : (
                          <span className="badge text-bg-light">Owned</span>
                        )}
                      </td>
                      <td className="text-end">
                        {refundable && !line.refunded && (
                          <button
                            type="button"
                            className="btn btn-sm btn-link text-danger p-0"
                            onClick={() => openRefund(line.kit_id)}
                            aria-label={`Refund ${line.title}`}
                          >
                            Refund line
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableCard>
          </div>

          <div className="row g-4">
            <div className="col-12 col-xl-7">
              <TableCard title="Payment events">
                {data.events.length === 0 ? (
                  <EmptyState>No payment event received for this order.</EmptyState>
                ) : (
                  <table className="table table-sm admin-table mb-0">
                    <thead>
                      <tr>
                        <th scope="col">When</th>
                        <th scope="col">Event</th>
                        <th scope="col">Outcome</th>
                        <th scope="col">Detail</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.events.map((event) => (
                        <tr key={`${event.at}|${event.type}|${event.outcome}`}>
                          <td className="text-nowrap">{dateTime(event.at)}</td>
                          <td className="text-nowrap">{event.type}</td>
                          <td>{event.outcome}</td>
                          <td className="small">{event.detail ?? ''}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </TableCard>
            </div>
            <div className="col-12 col-xl-5">
              <TableCard title="Mails sent">
                {data.mails.length === 0 ? (
                  <EmptyState>No mail sent about this order.</EmptyState>
                ) : (
                  <table className="table table-sm admin-table mb-0">
                    <thead>
                      <tr>
                        <th scope="col">When</th>
                        <th scope="col">Subject</th>
                        <th scope="col">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.mails.map((mail) => (
                        <tr key={`${mail.at}|${mail.subject}`}>
                          <td className="text-nowrap">{dateTime(mail.at)}</td>
                          <td>{mail.subject}</td>
                          <td>{mail.status}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </TableCard>
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
              <div className="form-check">
                <input
                  className="form-check-input"
                  type="radio"
                  id="refund-whole"
                  checked={scope === 'whole'}
                  onChange={() => setScope('whole')}
                />
                <label className="form-check-label" htmlFor="refund-whole">
                  Whole order
                </label>
              </div>
              <div className="form-check">
                <input
                  className="form-check-input"
                  type="radio"
                  id="refund-lines"
                  checked={scope === 'lines'}
                  onChange={() => setScope('lines')}
                />
                <label className="form-check-label" htmlFor="refund-lines">
                  Chosen lines
                </label>
              </div>
              {scope === 'lines' && (
                <div className="ms-4 mt-2">
                  {open.map((line) => (
                    <div className="form-check" key={line.kit_id}>
                      <input
                        className="form-check-input"
                        type="checkbox"
                        id={`refund-line-${line.kit_id}`}
                        checked={chosen.includes(line.kit_id)}
                        onChange={(e) =>
                          setChosen((current) =>
                            e.target.checked ? [...current, line.kit_id] : current.filter((k) => k !== line.kit_id),
                          )
                        }
                      />
                      <label className="form-check-label" htmlFor={`refund-line-${line.kit_id}`}>
                        {line.title} ({money(line.price)})
                      </label>
                    </div>
                  ))}
                </div>
              )}
            </fieldset>
            <label htmlFor="refund-reason" className="form-label">
              Reason
            </label>
            <textarea
              id="refund-reason"
              className="form-control"
              rows={2}
              maxLength={500}
              required
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            <p className="form-text mb-0">
              The buyer loses the refunded kits at once: purchases, downloads and setup guide.
            </p>
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
