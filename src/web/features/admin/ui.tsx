import { Fragment, type ReactNode, useEffect, useRef } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ApiError } from '../../lib/api.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { watchScrollRegions } from '../../lib/scroll-regions.ts';
import { messageForPeople } from '../../lib/server-message.ts';
import { type OrderStatus, STATUS_LABELS, STATUS_VARIANTS } from './format.ts';

/** The screen's heading, and the tab title "{title} — Admin — Kitshop". */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useTitleAndPageView(`${title} — Admin — Kitshop`);
  return (
    <div className="admin-page-header">
      <h1 className="h3 mb-0">{title}</h1>
      {children && <div className="admin-page-actions">{children}</div>}
    </div>
  );
}

/**
 * The server's message for a failed call as a person reads it (the field name the API puts before
 * a sentence left out), or the fallback (network failure, 5xx without a message).
 */
export function errorText(error: unknown, fallback = 'Something went wrong. Try again.'): string {
  if (error instanceof ApiError && error.message && error.message !== 'Request failed')
    return messageForPeople(error.message);
  return fallback;
}

type QueryLike = { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };

/**
 * What a read shows before its data: a spinner while loading, an alert with "Try again" on failure.
 * Returns null once the data is there, so a screen renders `<Loading query={q} /> ?? content`.
 */
export function QueryState({ query, label }: { query: QueryLike; label: string }) {
  if (query.isPending) {
    return (
      <div className="admin-state" role="status">
        <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
        Loading {label}…
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
        <span className="me-auto">
          Could not load {label}. {errorText(query.error, '')}
        </span>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return null;
}

/** Facts about a record as a definition list: [label, value] pairs. */
export function Facts({ facts, wide }: { facts: [string, ReactNode, string?][]; wide?: boolean }) {
  return (
    <dl className={`card-body admin-facts${wide ? ' admin-facts-wide' : ''} mb-0`}>
      {facts.map(([label, value, className]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd className={className}>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/**
 * A dialog's text field with its label (saying so when it is required) and the hint under it; `state` is the `useState` pair
 * holding its text. By default an owner's note: two rows, 500 characters (RefundSchema, GrantSchema).
 */
export function TextArea({
  id,
  label,
  hint,
  state: [value, onChange],
  rows = 2,
  maxLength = 500,
  required,
}: {
  id: string;
  label: string;
  hint: ReactNode;
  state: [string, (value: string) => void];
  rows?: number;
  maxLength?: number;
  required?: boolean;
}) {
  return (
    <>
      <label htmlFor={id} className="form-label">
        {label}
        {required && <span className="admin-required"> (required)</span>}
      </label>
      <textarea
        id={id}
        className="form-control"
        rows={rows}
        maxLength={maxLength}
        required={required}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="form-text mb-0">{hint}</p>
    </>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="admin-empty text-body-secondary">{children}</p>;
}

export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span className={`badge text-bg-${STATUS_VARIANTS[status] ?? 'secondary'}`}>{STATUS_LABELS[status] ?? status}</span>
  );
}

/** A box that keyboard users can focus and scroll while it scrolls (lib/scroll-regions.ts). */
export function useScrollRegion<T extends HTMLElement>(label: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (ref.current) return watchScrollRegions([[ref.current, label]]);
  }, [label]);
  return ref;
}

/** A box around content that may scroll, focusable while it does. */
export function ScrollBox({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  const ref = useScrollRegion<HTMLDivElement>(label);
  return (
    <div className={className} ref={ref}>
      {children}
    </div>
  );
}

/** A card whose table scrolls sideways inside it when it must (never the page); phones stack its rows. */
export function TableCard({ title, children, footer }: { title?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  const label = typeof title === 'string' ? title : undefined;
  const box = useScrollRegion<HTMLDivElement>(label ?? 'Table');
  return (
    <section className="card admin-card" aria-label={label}>
      {title && <h2 className="card-header h6 mb-0">{title}</h2>}
      <div className="table-responsive" ref={box}>
        {children}
      </div>
      {footer && <div className="card-footer">{footer}</div>}
    </section>
  );
}

type PagedLike = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

export function LoadMore({ query }: { query: PagedLike }) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className="btn btn-outline-secondary btn-sm"
      disabled={query.isFetchingNextPage}
      onClick={() => query.fetchNextPage()}
    >
      {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
    </button>
  );
}

/**
 * Every owner action asks first: a dialog with what will happen, an optional form body (reason,
 * note, reply), and the action's own button. The result appears in the dialog on failure and as
 * a toast on success (the caller's onConfirm).
 */
export function ConfirmDialog({
  show,
  title,
  children,
  confirmLabel,
  variant = 'primary',
  busy,
  error,
  disabled,
  onConfirm,
  onClose,
}: {
  show: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  variant?: 'primary' | 'danger' | 'warning' | 'success';
  busy: boolean;
  error: string | null;
  disabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal show={show} onHide={busy ? () => {} : onClose} centered aria-labelledby="admin-dialog-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <Modal.Header closeButton={!busy}>
          <Modal.Title id="admin-dialog-title" as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {children}
          {error && (
            <div className="alert alert-danger mt-3 mb-0" role="alert">
              {error}
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className={`btn btn-${variant}`} disabled={busy || disabled}>
            {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {confirmLabel}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
