import { Link } from 'react-router';
import { appUrl } from '../lib/initial-data.ts';
import { Icon } from './icon.tsx';

type KitLinkProps = { purchaseId: number; sefId: string; titleId: string };

/** A purchased kit's archive: a file download, so a plain link rather than a route. */
export function DownloadLink({ purchaseId, titleId }: Omit<KitLinkProps, 'sefId'>) {
  return (
    <a href={appUrl(`/download/${purchaseId}`)} className="btn btn-primary btn-sm" aria-describedby={titleId}>
      <Icon name="download" size={16} /> Download
    </a>
  );
}

/** A purchased kit's setup guide in the user panel. */
export function SetupGuideLink({ sefId, titleId }: Omit<KitLinkProps, 'purchaseId'>) {
  return (
    <Link to={`/user-panel/item/${sefId}`} className="btn btn-outline-secondary btn-sm" aria-describedby={titleId}>
      <Icon name="gear" size={16} /> Setup guide
    </Link>
  );
}
