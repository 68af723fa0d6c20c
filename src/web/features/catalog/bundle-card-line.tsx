import { formatPrice, roundDollars } from '../../../common/money.ts';
import type { KitSummary } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';

// The home card's part of a bundle, apart from the product page's section (bundle-contents.tsx),
// which would otherwise ride in the home page's first load.

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
