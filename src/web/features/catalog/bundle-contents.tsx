import { Link } from 'react-router';
import { formatPrice, roundDollars } from '../../../common/money.ts';
import type { KitSummary } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';
import { Section } from './section.tsx';

/** A bundle's saving against buying its kits one by one: the sum of their prices and what it saves. */
export function bundleSaving(kit: KitSummary): { separately: number; saving: number } | null {
  if (!kit.includes || kit.includes.length === 0) return null;
  const separately = roundDollars(kit.includes.reduce((sum, k) => sum + k.price, 0));
  return { separately, saving: Math.max(0, roundDollars(separately - kit.price)) };
}

/** The home card's line for a bundle: its kits in short, and the saving. */
export function BundleCardLine({ kit }: { kit: KitSummary }) {
  const saving = bundleSaving(kit);
  if (!saving) return null;
  return (
    <p className="bundle-line" data-testid="bundle-line">
      <Icon name="bolt" size={16} /> Bundle of {kit.includes!.length} kits:{' '}
      {kit.includes!.map((k) => k.title).join(', ')}
      {saving.saving > 0 && <strong className="bundle-saving"> Save {formatPrice(saving.saving)}</strong>}
    </p>
  );
}

/** The product page's section of a bundle: each kit it grants, with its own price and page, and the saving. */
export function BundleContents({ kit }: { kit: KitSummary }) {
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
        . Already own one of these kits? Sign in: the cart takes what you paid for it off the bundle price.
      </p>
    </Section>
  );
}
