import { queryOptions } from '@tanstack/react-query';
import type { DashboardStats, Order, OrderStatus, Page } from './types';

const BASE_URL = (import.meta.env.VITE_API_URL ?? '/api').replace(/\/+$/, '');
export const TOKEN_KEY = 'admin.token';

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const token = localStorage.getItem(TOKEN_KEY);
  const response = await fetch(`${BASE_URL}${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...init.headers,
    },
  });
  if (response.status === 401) {
    localStorage.removeItem(TOKEN_KEY);
    window.location.assign('/sign-in');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(response.status, body.message ?? response.statusText);
  }
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

export interface OrderQuery {
  page: number;
  status?: OrderStatus;
  sort: 'createdAt' | '-createdAt' | 'totalCents' | '-totalCents';
  q?: string;
}

export const dashboardQuery = queryOptions({
  queryKey: ['dashboard'],
  queryFn: () => apiFetch<DashboardStats>('/dashboard?range=30d'),
});

export const ordersQuery = (query: OrderQuery) =>
  queryOptions({
    queryKey: ['orders', query],
    queryFn: () => {
      const params = new URLSearchParams({ page: String(query.page), sort: query.sort });
      if (query.status) params.set('status', query.status);
      if (query.q) params.set('q', query.q);
      return apiFetch<Page<Order>>(`/orders?${params}`);
    },
    placeholderData: (previous) => previous,
  });

export function signIn(email: string, password: string) {
  return apiFetch<{ token: string }>('/auth/sign-in', { method: 'POST', body: JSON.stringify({ email, password }) });
}
