import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { longDate } from '../../../common/dates.ts';
import { formatPrice } from '../../../common/money.ts';
import type { CodeOffer } from '../../../common/schemas/orders.ts';
import { ApiError, apiGet } from '../api.ts';
import { discountCodeStore, useDiscountCode } from './discount-code.ts';

export type CodeOfferState =
  | { status: 'none' }
  | { status: 'active'; offer: CodeOffer }
  /** The server refused the remembered code (unknown, paused, expired, used): why, in its words. */
  | { status: 'refused'; code: string; message: string };

/** A refusal is final for this code; anything else (offline, a 5xx) is worth another try later. */
const isRefusal = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * The remembered code (a `?code=` link or the cart's Apply) and what it takes off each kit, priced by
 * the server. Asked for only once the page runs: the server's page is every visitor's, without one
 * (`useDiscountCode` answers null there and while the browser hydrates it, so a visitor without a
 * code sees nothing change, and nothing renders again, when the page comes alive).
 * A refused code is forgotten, as the cart forgets it, and the refusal is answered once.
 */
export function useCodeOffer(): CodeOfferState {
  const code = useDiscountCode();
  const query = useQuery({
    queryKey: ['code-offer', code],
    queryFn: () => apiGet<CodeOffer>(`/api/discount-codes/${encodeURIComponent(code ?? '')}`),
    enabled: code !== null,
    staleTime: 60_000,
    retry: (count, error) => !isRefusal(error) && count < 2,
  });
  const [refusal, setRefusal] = useState<{ code: string; message: string } | null>(null);
  const refusedNow = query.isError && isRefusal(query.error) ? query.error.message : null;
  useEffect(() => {
    if (refusedNow === null || code === null) return;
    setRefusal({ code, message: refusedNow });
    if (discountCodeStore.get() === code) discountCodeStore.clear();
  }, [refusedNow, code]);
  if (query.data && code !== null) return { status: 'active', offer: query.data };
  return refusal ? { status: 'refused', ...refusal } : { status: 'none' };
}

/** What the code makes of a kit's price, or null when it does not apply to that kit. */
export function codePrice(state: CodeOfferState, kitId: number): { price: number; original: number } | null {
  if (state.status !== 'active') return null;
  const line = state.offer.prices.find((p) => p.id === kitId);
  return line && line.price < line.original_price ? { price: line.price, original: line.original_price } : null;
}

/** "20% off" / "$10 off". */
export const codeAmount = (offer: CodeOffer) =>
  offer.percent_off !== null ? `${offer.percent_off}% off` : `${formatPrice(offer.amount_off ?? 0)} off`;

/** What the announcement says: the code, what it takes off, on which kits, until when. */
export function codeAnnouncement(offer: CodeOffer): string {
  const kits =
    offer.kit_ids === null
      ? 'every kit'
      : offer.prices.length === 1
        ? offer.prices[0]!.title
        : offer.prices.map((p) => p.title).join(', ');
  const scope = offer.percent_off === null && offer.kit_ids === null ? 'your order' : kits;
  const until = offer.last_day ? ` until ${longDate(offer.last_day)}` : '';
  return `Code ${offer.code} is active: ${codeAmount(offer)} ${scope}${until}.`;
}
