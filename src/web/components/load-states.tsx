import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Icon } from './icon.tsx';

/** A screen's loading line: a small spinner and the text, announced politely. */
export function Loading({ className, children }: { className: string; children: ReactNode }) {
  return (
    <div className={`${className} d-flex align-items-center gap-3`} role="status" aria-live="polite">
      <span className="spinner-border spinner-border-sm text-primary" aria-hidden="true" />
      {children}
    </div>
  );
}

/** A read that failed: the text and a button that asks again. */
export function LoadFailed({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <div className="alert alert-warning d-flex flex-wrap align-items-center justify-content-between gap-2" role="alert">
      {children}
      <button type="button" className="btn btn-sm btn-outline-dark" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** Nothing to show yet (an empty cart, no purchases): an icon, a heading, a line and 'Browse Kits'. */
export function BrowseKitsPrompt({
  icon,
  title,
  headingClass,
  children,
}: {
  icon: string;
  title: string;
  headingClass: string;
  children: ReactNode;
}) {
  return (
    <>
      <span className="icon-badge">
        <Icon name={icon} />
      </span>
      <h2 className={headingClass}>{title}</h2>
      <p className="text-body-secondary">{children}</p>
      <Link to="/#kits" className="btn btn-primary">
        Browse Kits
      </Link>
    </>
  );
}
