import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import home from '../../../../content/home.json';
import { longDate } from '../../../common/dates.ts';
import { groupedCount } from '../../../common/numbers.ts';
import { PAGE_QUERY_KEYS } from '../../../common/page-data.ts';
import type { KitSummary } from '../../../common/schemas/catalog.ts';
import type { ShopStats } from '../../../common/schemas/orders.ts';
import { Icon } from '../../components/icon.tsx';
import { apiGet } from '../../lib/api.ts';
import type { CodeOfferState } from '../../lib/cart/code-offer.ts';
import { useAddToCart } from '../../lib/cart/use-cart.ts';
import { appUrl } from '../../lib/initial-data.ts';
import { shownPrice } from './catalog-api.ts';
import { KitPrice } from './kit-price.tsx';

/** The shop's figures, rendered with the home page by the server; asked again a minute later. */
const useShopStats = () =>
  useQuery({
    queryKey: PAGE_QUERY_KEYS.shopStats(),
    queryFn: () => apiGet<ShopStats>('/api/shop-stats'),
    staleTime: 60_000,
  });

const { trust, shelf } = home;
const fill = (text: string, n: number) => text.replace('{n}', groupedCount(n));

/** The newest release day among the kits ('YYYY-MM-DD' sorts as text). */
const newestRelease = (kits: KitSummary[]) =>
  kits.reduce<string | null>(
    (newest, k) => (k.released_on && (!newest || k.released_on > newest) ? k.released_on : newest),
    null,
  );

/**
 * Trust from the shop's own records only: how many developers bought (paid orders, none shown
 * before the first), how many kits, and the newest release. Nothing here is written by hand.
 */
export function TrustLine({ kits }: { kits: KitSummary[] }) {
  const { data: stats } = useShopStats();
  const newest = newestRelease(kits);
  const buyers = stats?.buyers ?? 0;
  return (
    <ul className="trust-line list-unstyled" data-testid="trust-line">
      {buyers > 0 && (
        <li data-testid="buyers">
          <Icon name="check" size={16} /> {fill(buyers === 1 ? trust.buyer : trust.buyers, buyers)}
        </li>
      )}
      <li>
        <Icon name="code" size={16} /> {fill(trust.kits, kits.length)}
      </li>
      {newest && (
        <li>
          <Icon name="download" size={16} /> {trust.newest.replace('{date}', longDate(newest))}
        </li>
      )}
    </ul>
  );
}

/**
 * The first screen's kits: each with its picture, title, price and `Add to Cart`, so a visitor sees
 * what is sold and what it costs before scrolling (the grid further down compares them).
 */
export function KitShelf({ kits, code }: { kits: KitSummary[]; code: CodeOfferState }) {
  const addToCart = useAddToCart();
  return (
    <section className="kit-shelf" aria-labelledby="shelf-title">
      <h2 id="shelf-title" className="kit-shelf-title">
        {shelf.title}
      </h2>
      <ul className="list-unstyled mb-0">
        {kits.map((kit) => (
          <li className="shelf-kit" key={kit.id} data-testid="shelf-kit">
            {kit.thumbnail ? (
              // Sized by its attributes (the thumbnail's own 640x400), drawn small: nothing shifts while it loads.
              <img className="shelf-thumb" src={appUrl(kit.thumbnail.url)} alt="" width={640} height={400} />
            ) : (
              <span className="shelf-thumb" aria-hidden="true" />
            )}
            <div className="shelf-text">
              <Link to={`/product/${kit.sef_id}`} className="shelf-name">
                {kit.title}
              </Link>
              <p className="shelf-price mb-0">
                <KitPrice shown={shownPrice(kit, code)} />
              </p>
            </div>
            <button
              type="button"
              className="btn btn-primary btn-sm shelf-add"
              onClick={() => addToCart(kit.id)}
              aria-label={`Add to Cart ${kit.title}`}
            >
              Add to Cart
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
