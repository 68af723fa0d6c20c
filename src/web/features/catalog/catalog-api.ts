import { useQuery } from '@tanstack/react-query';
import { PAGE_QUERY_KEYS } from '../../../common/page-data.ts';
import type { KitDocs, KitLicence, KitProduct, KitSummary } from '../../../common/schemas/catalog.ts';
import { currentUserId } from '../../app/session.ts';
import { apiGet, apiPost } from '../../lib/api.ts';
import { type CodeOfferState, codePrice, useCodeOffer } from '../../lib/cart/code-offer.ts';
import { fetchPricedCart, isCodeRefusal } from '../../lib/cart/priced-cart.ts';
import { useHydrated } from '../../lib/hydration.ts';
import type { ShownPrice } from './kit-price.tsx';

/** The kits of the home grid; `enabled: false` waits (the phone menu asks only once it opens). */
export const useKits = (enabled = true) =>
  useQuery({
    queryKey: PAGE_QUERY_KEYS.products(),
    queryFn: () => apiPost<KitSummary[]>('/api/products'),
    staleTime: 5 * 60_000,
    enabled,
  });

/** A kit's product answer; null when the server's page said there is no such kit (a 404 it rendered). */
export const useKit = (sefId: string) =>
  useQuery<KitProduct | null>({
    queryKey: PAGE_QUERY_KEYS.product(sefId),
    queryFn: () => apiPost<KitProduct>(`/api/product/${encodeURIComponent(sefId)}`),
  });

/** A kit's documentation; null when the server's page said it has none (a 404 it rendered). */
export const useKitDocs = (sefId: string) =>
  useQuery<KitDocs | null>({
    queryKey: PAGE_QUERY_KEYS.docs(sefId),
    queryFn: () => apiGet<KitDocs>(`/api/docs/${encodeURIComponent(sefId)}`),
  });

/** The price a card shows: the remembered code's when it applies to the kit, else the kit's own. */
export function shownPrice(kit: KitSummary, code: CodeOfferState): ShownPrice {
  const withCode = codePrice(code, kit.id);
  return withCode ? { price: withCode.price, was: withCode.original } : { price: kit.price, was: kit.discounted_from };
}

/** A licence tier as the cart sells it: under its own id, at its own price, with no struck price of Solo's. */
export const tierAsKit = (kit: KitProduct, tier: KitLicence): KitProduct => ({
  ...kit,
  id: tier.id,
  price: tier.price,
  discounted_from: null,
});

/**
 * What this kit is to the signed-in visitor, priced by the server as the cart prices it alone: owned,
 * or its price for them (a bundle's upgrade price when they own some of its kits, less the code).
 */
export type KitStanding = { owned: boolean; shown: ShownPrice; upgradeReason: string | null };

async function fetchStanding(kit: KitSummary, code: string | null): Promise<KitStanding> {
  let item = (await fetchPricedCart({ products: [kit.id] })).items[0];
  // Only an upgrade price needs the code priced in by the server; another line's code price is the
  // offer's. Asked apart, so a code that is not for this buyer's line (a kit they own) is never sent.
  if (item?.upgrade && !item.purchased && code) {
    try {
      item = (await fetchPricedCart({ products: [kit.id], discount_code: code })).items[0] ?? item;
    } catch (error) {
      if (!isCodeRefusal(error)) throw error;
    }
  }
  if (!item) return { owned: false, shown: { price: kit.price, was: kit.discounted_from }, upgradeReason: null };
  const original = item.original_price ?? kit.price;
  return {
    owned: item.purchased,
    shown: { price: item.price, was: item.price < original ? original : kit.discounted_from },
    upgradeReason: item.upgrade?.reason ?? null,
  };
}

/**
 * The kit for this visitor, once the page runs (the server's page is everyone's): for a signed-in
 * visitor asked of the cart's pricing; for a visitor, the code's price. `pending` while asking.
 */
export function useKitStanding(kit: KitSummary, signedIn: number | null): KitStanding & { pending: boolean } {
  const hydrated = useHydrated();
  const code = useCodeOffer();
  // The session store may answer a render later than the hydration flag: ask it directly, so the
  // buy button never shows enabled in between and then waits.
  const userId = signedIn ?? (hydrated ? currentUserId() : null);
  const codeText = codePrice(code, kit.id) && code.status === 'active' ? code.offer.code : null;
  const query = useQuery({
    queryKey: ['kit-standing', kit.id, userId, codeText],
    queryFn: () => fetchStanding(kit, codeText),
    enabled: hydrated && userId !== null,
    staleTime: 30_000,
    // A code learnt later prices the kit again: the button stays usable meanwhile.
    placeholderData: (previous) => previous,
  });
  if (userId !== null && query.data) {
    const { data } = query;
    // A plain line for this buyer: the code's price, as every visitor sees it.
    const plain = !data.owned && !data.upgradeReason;
    return { ...data, shown: plain ? shownPrice(kit, code) : data.shown, pending: false };
  }
  return {
    owned: false,
    shown: shownPrice(kit, code),
    upgradeReason: null,
    // Also until this screen itself has hydrated: the layout around it may come alive first, and
    // a click on the server's button before then would be lost.
    pending: !hydrated || (userId !== null && query.isPending),
  };
}
