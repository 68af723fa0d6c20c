import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { NOT_FOUND_TITLE } from '../../common/site.ts';
import { useTitleAndPageView } from '../lib/page-view.ts';

export function NotFoundPage() {
  useTitleAndPageView(NOT_FOUND_TITLE);
  return (
    <section className="container not-found text-center">
      <p className="not-found-code">404</p>
      <h1 className="h3">Page not found</h1>
      <p className="text-body-secondary">The page you are looking for does not exist or has moved.</p>
      <div className="d-flex gap-2 justify-content-center flex-wrap">
        <Link to="/" className="btn btn-primary">
          Go to the home page
        </Link>
        <Link to="/#kits" className="btn btn-outline-secondary">
          Browse Kits
        </Link>
      </div>
    </section>
  );
}

/** A page whose read failed for another reason than "not found": one warning in its place. */
export function LoadFailedPage({ children }: { children: ReactNode }) {
  return (
    <div className="container section">
      <div className="alert alert-warning" role="alert">
        {children}
      </div>
    </div>
  );
}
