import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import {
  type AccountSecurity,
  OWNER_SETUP_MESSAGE,
  OWNER_STEP_UP_MESSAGE,
} from '../../../common/schemas/account-security.ts';
import type { DiscountCreate, OwnerDiscount } from '../../../common/schemas/discounts.ts';
import type { OwnerLicence } from '../../../common/schemas/licences.ts';
import type {
  CountedPage,
  GrantSchema,
  OwnerActivity,
  OwnerCustomer,
  OwnerCustomerDetail,
  OwnerKit,
  OwnerMessage,
  OwnerOrder,
  OwnerOrderDetail,
  OwnerSummary,
  Page,
  RefundSchema,
} from '../../../common/schemas/owner.ts';
import { apiGet, apiGetWithCsrf, apiPost } from '../../lib/api.ts';
import { appUrl } from '../../lib/initial-data.ts';

/** Every owner read goes through TanStack Query under this key, so one invalidation refreshes the console. */
const ADMIN = 'admin';

/** `?a=1&b=x` from the values that are set (empty strings and undefined are left out). */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Whether this session may use the console. How the account signs in says first whether a sign-in
 * with a passkey or code is needed, or a first passkey or code must be added (the console's calls
 * would answer 403 with the same message); otherwise `/api/admin/me` answers the owner.
 */
export const useConsoleAccess = () =>
  useQuery({
    queryKey: [ADMIN, 'access'],
    retry: false,
    queryFn: async () => {
      const security = await apiGet<AccountSecurity>('/api/account/sign-in-security');
      if (security.step_up_required) return { open: false as const, stepUp: true, message: OWNER_STEP_UP_MESSAGE };
      if (security.setup_required) return { open: false as const, stepUp: false, message: OWNER_SETUP_MESSAGE };
      await apiGet<{ id: number }>('/api/admin/me');
      return { open: true as const };
    },
  });

/** Ends this session (as the user menu's Exit does), so the owner can sign in again with a passkey or code. */
export const signOutForStepUp = () => apiGetWithCsrf<{ ok: boolean }>('/api/exit');

export type MessageFilter = 'new' | 'answered' | 'all';

export const useSummary = (from: string, to: string) =>
  useQuery({
    queryKey: [ADMIN, 'summary', from, to],
    queryFn: () => apiGet<OwnerSummary>(`/api/admin/summary${queryString({ from, to })}`),
  });

/**
 * A cursor-paged list read page by page ("Load more"): one query per page, keyed by its cursor.
 * (Not useInfiniteQuery: it would add code to the chunk every buyer loads first.) A new search
 * starts again from the first page.
 */
function usePaged<T extends { next_cursor: string | null }>(key: string[], path: (cursor: string | null) => string) {
  const keyText = key.join('\u0000');
  const [state, setState] = useState({ keyText, cursors: [null] as (string | null)[] });
  const cursors = state.keyText === keyText ? state.cursors : [null];
  if (state.keyText !== keyText) setState({ keyText, cursors });
  const results = useQueries({
    queries: cursors.map((cursor) => ({
      queryKey: [ADMIN, ...key, cursor],
      queryFn: () => apiGet<T>(path(cursor)),
    })),
  });
  const first = results[0]!;
  const last = results[results.length - 1]!;
  const next = last.data?.next_cursor ?? null;
  return {
    data: first.data ? { pages: results.flatMap((r) => (r.data ? [r.data] : [])) } : undefined,
    isPending: first.isPending,
    isError: first.isError,
    error: first.error,
    refetch: first.refetch,
    hasNextPage: next !== null,
    isFetchingNextPage: cursors.length > 1 && last.isPending,
    fetchNextPage: () => {
      if (next !== null) setState({ keyText, cursors: [...cursors, next] });
    },
  };
}

export const PAGE_SIZE = 25;

export const useOrders = (query: string, status: string) =>
  usePaged<Page<OwnerOrder>>(
    ['orders', query, status],
    (cursor) => `/api/admin/orders${queryString({ query, status, cursor, limit: PAGE_SIZE })}`,
  );

export const useOrder = (id: string) =>
  useQuery({
    queryKey: [ADMIN, 'order', id],
    queryFn: () => apiGet<OwnerOrderDetail>(`/api/admin/orders/${encodeURIComponent(id)}`),
  });

export const useCustomers = (query: string) =>
  usePaged<Page<OwnerCustomer>>(
    ['customers', query],
    (cursor) => `/api/admin/customers${queryString({ query, cursor, limit: PAGE_SIZE })}`,
  );

export const useCustomer = (id: string) =>
  useQuery({
    queryKey: [ADMIN, 'customer', id],
    queryFn: () => apiGet<OwnerCustomerDetail>(`/api/admin/customers/${encodeURIComponent(id)}`),
  });

export const useKits = () =>
  useQuery({ queryKey: [ADMIN, 'kits'], queryFn: () => apiGet<OwnerKit[]>('/api/admin/kits') });

/** Contact messages newest first, page by page, of a status and matching a search. */
export const useMessages = (status: MessageFilter, query: string) =>
  usePaged<CountedPage<OwnerMessage>>(
    ['messages', status, query],
    (cursor) => `/api/admin/messages${queryString({ status, query, cursor, limit: PAGE_SIZE })}`,
  );

/** The newest few messages waiting for an answer (the dashboard's card). */
export const useNewMessages = (limit: number) =>
  useQuery({
    queryKey: [ADMIN, 'messages', 'new', limit],
    queryFn: () => apiGet<CountedPage<OwnerMessage>>(`/api/admin/messages${queryString({ status: 'new', limit })}`),
  });

export const useSubscribers = (query: string) =>
  usePaged<CountedPage<{ email: string; subscribed_at: string }>>(
    ['subscribers', query],
    (cursor) => `/api/admin/subscribers${queryString({ query, cursor, limit: PAGE_SIZE })}`,
  );

export const useActivity = () =>
  usePaged<Page<OwnerActivity>>(['activity'], (cursor) => `/api/admin/activity${queryString({ cursor })}`);

/** The CSV export is a plain download: the browser sends the session cookie with the link. */
export const SUBSCRIBERS_CSV_URL = appUrl('/api/admin/subscribers.csv');

/**
 * An owner action: POST, then refresh everything the console has read (an action changes
 * totals, lists and the activity log alike), and hand the answer to the caller.
 */
function useAdminAction<Input, Output>(send: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: [ADMIN] }),
  });
}

export const useRefund = (orderId: string) =>
  useAdminAction((body: z.input<typeof RefundSchema>) =>
    apiPost<OwnerOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderId)}/refund`, body),
  );

export const useResendReceipt = (orderId: string) =>
  useAdminAction(() => apiPost<{ ok: boolean }>(`/api/admin/orders/${encodeURIComponent(orderId)}/resend`));

export const useGrant = (customerId: number) =>
  useAdminAction(({ action, ...body }: z.input<typeof GrantSchema> & { action: 'grant' | 'revoke' }) =>
    apiPost<OwnerCustomerDetail>(`/api/admin/customers/${customerId}/${action}`, body),
  );

export const useSignOutCustomer = (customerId: number) =>
  useAdminAction(() => apiPost<{ ended: number }>(`/api/admin/customers/${customerId}/sign-out`));

export const useKitSwitch = () =>
  useAdminAction(({ id, active }: { id: number; active: boolean }) =>
    apiPost<OwnerKit>(`/api/admin/kits/${id}`, { active }),
  );

export const useReply = () =>
  useAdminAction(({ id, body }: { id: number; body: string }) =>
    apiPost<OwnerMessage>(`/api/admin/messages/${id}/reply`, { body }),
  );

export const useDiscounts = () =>
  useQuery({
    queryKey: [ADMIN, 'discounts'],
    // time_zone: SHOP_TIME_ZONE, where the codes' start and end days are.
    queryFn: () => apiGet<{ items: OwnerDiscount[]; time_zone: string }>('/api/admin/discounts'),
  });

export const useCreateDiscount = () =>
  useAdminAction((body: DiscountCreate) => apiPost<OwnerDiscount>('/api/admin/discounts', body));

export const useDiscountSwitch = () =>
  useAdminAction(({ code, active }: { code: string; active: boolean }) =>
    apiPost<OwnerDiscount>(`/api/admin/discounts/${encodeURIComponent(code)}`, { active }),
  );

export const useOrderLicences = (orderId: string) =>
  useQuery({
    queryKey: [ADMIN, 'order', orderId, 'licences'],
    queryFn: () => apiGet<{ items: OwnerLicence[] }>(`/api/admin/orders/${encodeURIComponent(orderId)}/licences`),
  });

export type LicenceAction = 'disable' | 'enable' | 'reset-activations';
export const useLicenceAction = () =>
  useAdminAction(({ id, action }: { id: number; action: LicenceAction }) =>
    apiPost<OwnerLicence>(`/api/admin/licences/${id}/${action}`),
  );
export const useFreeSeat = () =>
  useAdminAction((seatId: number) => apiPost<OwnerOrderDetail>(`/api/admin/seats/${seatId}/free`));
