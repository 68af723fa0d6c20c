import { Link } from 'react-router';
import { formatPrice } from '../../../common/money.ts';
import type { KitSummary } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';
import { bundleSaving } from './bundle-card-line.tsx';
import { Section } from './section.tsx';

/** The product page's section of a bundle: each kit it grants, with its own price and page, and the saving. */
export function BundleContents({ kit, upgradeReason }: { kit: KitSummary; upgradeReason: string | null }) {
  const saving = bundleSaving(kit);
  if (!saving) return null;
  return (
    <Section titleId="bundle-title" title="What's in the bundle" alt narrow>
      <ul className="bundle-kits list-unstyled" data-testid="bundle-kits">
        {kit.includes!.map((included) => (
          <li key={included.id}>
            <Icon name="check" size={16} className="text-success" />{' '}
            <Link to={`/product/${included.sef_id}`}>{included.title}</Link>
            <span className="bundle-kit-price">{formatPrice(included.price)}</span>
          </li>
        ))}
      </ul>
      <p className="bundle-summary" data-testid="bundle-saving">
        {formatPrice(saving.separately)} bought one by one; the bundle is {formatPrice(kit.price)}
        {saving.saving > 0 && (
          <>
            : <strong>you save {formatPrice(saving.saving)}</strong>
          </>
        )}
        .{' '}
        {upgradeReason ? (
          <strong data-testid="bundle-upgrade">{upgradeReason}</strong>
        ) : (
          'Already own one of these kits? Sign in: the cart takes what you paid for it off the bundle price.'
        )}
      </p>
    </Section>
  );
}
