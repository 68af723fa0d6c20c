import { Link } from 'react-router';
import { longDate } from '../../../common/dates.ts';
import type { PurchaseItem } from '../../../common/schemas/accounts.ts';
import { Icon } from '../../components/icon.tsx';
import { DownloadLink, SetupGuideLink } from '../../components/kit-links.tsx';
import { BrowseKitsPrompt, Loading } from '../../components/load-states.tsx';
import { GithubConnection, RepositoryAccess } from './github-access.tsx';
import { usePurchases } from './library-api.ts';

function Purchase({ item }: { item: PurchaseItem }) {
  const titleId = `purchase-${item.id}-title`;
  return (
    <li className="card purchase" data-testid="purchase">
      <div className="card-body">
        <h3 id={titleId} className="h5 fw-bold mb-1">
          {item.title}
          {item.updated && <span className="badge text-bg-success ms-2 align-middle">Updated</span>}
        </h3>
        <p className="purchase-spot">{item.spot}</p>
        {item.version && (
          <p className="purchase-version small text-body-secondary" data-testid="purchase-version">
            Version {item.version}
            {item.released_on && <> · released {longDate(item.released_on)}</>}
            {item.updated && <> · new since your last download</>}
          </p>
        )}
        {item.repository && <RepositoryAccess kitId={item.id} repository={item.repository} titleId={titleId} />}
        <div className="d-flex flex-wrap gap-2">
          <DownloadLink purchaseId={item.id} titleId={titleId} />
          {/* Only pages that exist: docs for a kit that has them, neither for a kit no longer on the store. */}
          {item.documentation && (
            <Link to={`/docs/${item.sef_id}`} className="btn btn-outline-secondary btn-sm" aria-describedby={titleId}>
              <Icon name="book" size={16} /> Documentation
            </Link>
          )}
          {item.listed && (
            <Link
              to={`/product/${item.sef_id}`}
              className="btn btn-outline-secondary btn-sm"
              aria-describedby={titleId}
            >
              Product page
            </Link>
          )}
          <SetupGuideLink sefId={item.sef_id} titleId={titleId} />
        </div>
      </div>
    </li>
  );
}

/** The user panel's Purchases tab: loading, then the kits bought (downloads, docs, guides) or none. */
export function PurchasesTab() {
  const { items, isPending } = usePurchases();

  if (isPending) {
    return <Loading className="purchases-loading">Loading your purchases…</Loading>;
  }

  if (!items || items.length === 0) {
    return (
      <div className="purchases-empty text-center" data-testid="purchases-empty">
        <BrowseKitsPrompt icon="cart" title="No purchases yet" headingClass="h5 fw-bold">
          Kits you buy appear here with their downloads, docs and setup guides.
        </BrowseKitsPrompt>
      </div>
    );
  }

  return (
    <>
      <h2 className="visually-hidden">Purchases</h2>
      {items.some((item) => item.repository) && <GithubConnection />}
      <ul className="purchases list-unstyled d-grid gap-3 mb-0">
        {items.map((item) => (
          <Purchase key={item.id} item={item} />
        ))}
      </ul>
    </>
  );
}
