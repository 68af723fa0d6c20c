import './orders-tab.scss';
import { type FormEvent, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { formatUsd } from '../../../common/money.ts';
import { BrowseKitsPrompt, LoadFailed, Loading } from '../../components/load-states.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ApiError } from '../../lib/api.ts';
import { appUrl } from '../../lib/initial-data.ts';
import {
  type BusinessErrors,
  BusinessFields,
  type BusinessForm,
  businessPayload,
  checkBusinessForm,
  EMPTY_BUSINESS,
  errorsAfterChange,
  fieldError,
} from './business-fields.tsx';
import { type BuyerOrder, saveBusinessDetails, useBuyerOrders } from './orders-api.ts';

const STATUS: Record<BuyerOrder['status'], { label: string; badge: string }> = {
  paid: { label: 'Paid', badge: 'text-bg-success' },
  partially_refunded: { label: 'Partly refunded', badge: 'text-bg-warning' },
  refunded: { label: 'Refunded', badge: 'text-bg-secondary' },
};

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The dialog of `Add Business Details`: the form, then one call; the order's invoice shows them after. */
function BusinessDialog({ order, onClose, onSaved }: { order: BuyerOrder; onClose: () => void; onSaved: () => void }) {
  const toast = useToast();
  const [form, setForm] = useState<BusinessForm>(EMPTY_BUSINESS);
  const [errors, setErrors] = useState<BusinessErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkBusinessForm(form);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await saveBusinessDetails(order.order_id, businessPayload(form));
      toast({ title: 'Business details added', body: 'Your invoice now names your company.', variant: 'success' });
      onSaved();
    } catch (error) {
      const message = error instanceof ApiError ? error.message : 'Network error. Please try again.';
      const onField = fieldError(message);
      if (onField) setErrors(onField);
      else setProblem(message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal show onHide={busy ? () => {} : onClose} centered aria-labelledby="business-dialog-title">
      <form noValidate onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id="business-dialog-title" as="h2" className="h5">
            Add Business Details
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">
            For order <span className="font-monospace">{order.order_id}</span>. Business details can be added once.
          </p>
          {problem && (
            <div className="alert alert-warning" role="alert">
              {problem}
            </div>
          )}
          <BusinessFields
            idPrefix="order-business"
            value={form}
            errors={errors}
            disabled={busy}
            onChange={(next, changed) => {
              setForm(next);
              setErrors((current) => errorsAfterChange(current, changed));
            }}
          />
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save Business Details'}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}

function Order({ order, onAddBusiness }: { order: BuyerOrder; onAddBusiness: () => void }) {
  const titleId = `order-${order.order_id}-title`;
  const status = STATUS[order.status];
  return (
    <li className="card buyer-order" data-testid="order">
      <div className="card-body">
        <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-2">
          <h3 id={titleId} className="h6 fw-bold mb-0">
            Order <span className="font-monospace">{order.order_id}</span>
          </h3>
          <span className={`badge ${status.badge}`}>{status.label}</span>
        </div>
        <dl className="buyer-order-facts small mb-2">
          <div>
            <dt>Date</dt>
            <dd>{dateOf(order.date)}</dd>
          </div>
          <div>
            <dt>Total</dt>
            <dd className="fw-semibold">{formatUsd(order.total)}</dd>
          </div>
          {order.business && (
            <div>
              <dt>Billed to</dt>
              <dd>
                {order.business.company_name}
                {order.business.vat_id && <> · {order.business.vat_id}</>}
              </dd>
            </div>
          )}
        </dl>
        <ul className="buyer-order-kits list-unstyled mb-3">
          {order.kits.map((kit) => (
            <li key={kit.id} className="d-flex justify-content-between gap-3">
              <span>{kit.title}</span>
              <span className="text-nowrap">{formatUsd(kit.price)}</span>
            </li>
          ))}
        </ul>
        <div className="d-flex flex-wrap gap-2">
          <a
            href={appUrl(order.invoice_url)}
            className="btn btn-outline-primary btn-sm"
            aria-describedby={titleId}
            download
          >
            Invoice
          </a>
          {order.credit_notes.map((note) => (
            <a
              key={note.url}
              href={appUrl(note.url)}
              className="btn btn-outline-secondary btn-sm"
              aria-describedby={titleId}
              download
            >
              Credit note ({formatUsd(note.amount)}, {dateOf(note.date)})
            </a>
          ))}
          {order.can_add_business && (
            <button
              type="button"
              className="btn btn-outline-secondary btn-sm"
              aria-describedby={titleId}
              onClick={onAddBusiness}
            >
              Add Business Details
            </button>
          )}
        </div>
      </div>
    </li>
  );
}

/** The user panel's Orders tab: the buyer's paid and refunded orders with their invoices and credit notes. */
export function OrdersTab() {
  const { query, retry } = useBuyerOrders();
  const [adding, setAdding] = useState<BuyerOrder | null>(null);
  if (query.isError) return <LoadFailed onRetry={retry}>We could not load your orders right now.</LoadFailed>;
  if (!query.isSuccess) return <Loading className="orders-loading">Loading your orders…</Loading>;
  if (query.data.length === 0) {
    return (
      <div className="text-center" data-testid="orders-empty">
        <BrowseKitsPrompt icon="cart" title="No orders yet" headingClass="h5 fw-bold">
          Orders you pay for appear here with their invoices.
        </BrowseKitsPrompt>
      </div>
    );
  }
  return (
    <>
      <h2 className="visually-hidden">Orders</h2>
      <ul className="buyer-orders list-unstyled d-grid gap-3 mb-0">
        {query.data.map((order) => (
          <Order key={order.order_id} order={order} onAddBusiness={() => setAdding(order)} />
        ))}
      </ul>
      {adding && (
        <BusinessDialog
          order={adding}
          onClose={() => setAdding(null)}
          onSaved={() => {
            setAdding(null);
            retry();
          }}
        />
      )}
    </>
  );
}
