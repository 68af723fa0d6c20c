import { delay, HttpResponse, http } from 'msw';
import type { DashboardStats, Order, OrderStatus, Page } from '../lib/types';

const API = `${(import.meta.env.VITE_API_URL ?? '/api').replace(/\/+$/, '')}`;
const STATUSES: OrderStatus[] = ['paid', 'paid', 'shipped', 'pending', 'refunded', 'cancelled'];
const NAMES = ['Olivia Chen', 'Marcus Webb', 'Priya Natarajan', 'Tomás Alvarez', 'Hannah Becker', 'Kwame Mensah'];

// Deterministic data so screenshots and tests stay stable.
const orders: Order[] = Array.from({ length: 248 }, (_, i) => {
  const name = NAMES[i % NAMES.length];
  return {
    id: `ord_${1000 + i}`,
    number: `#${10480 - i}`,
    customer: { name, email: `${name.split(' ')[0].toLowerCase()}@example.com` },
    items: (i % 4) + 1,
    totalCents: 1900 + ((i * 7919) % 42000),
    status: STATUSES[(i * 5) % STATUSES.length],
    createdAt: new Date(Date.UTC(2025, 10, 3) - i * 3.1 * 3600_000).toISOString(),
  };
});

export const handlers = [
  http.post(`${API}/auth/sign-in`, async ({ request }) => {
    const { password } = (await request.json()) as { password: string };
    await delay(300);
    return password === 'demo1234'
      ? HttpResponse.json({ token: 'mock-token' })
      : HttpResponse.json({ message: 'Email or password is incorrect' }, { status: 401 });
  }),

  http.get(`${API}/dashboard`, () => {
    const series = Array.from({ length: 30 }, (_, d) => ({
      date: `Oct ${d + 1}`,
      revenueCents: 380_000 + Math.round(Math.sin(d / 3) * 60_000) + d * 4_000,
      orders: 40 + (d % 7) * 3,
    }));
    return HttpResponse.json<DashboardStats>({
      revenueCents: series.reduce((sum, p) => sum + p.revenueCents, 0),
      revenueChange: 0.124,
      orders: series.reduce((sum, p) => sum + p.orders, 0),
      ordersChange: 0.061,
      customers: 3_912,
      conversionRate: 0.032,
      series,
    });
  }),

  http.get(`${API}/orders`, ({ request }) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const status = url.searchParams.get('status');
    const sort = url.searchParams.get('sort') ?? '-createdAt';
    const q = url.searchParams.get('q')?.toLowerCase();

    let rows = orders.filter((o) => (!status || o.status === status) && (!q || o.customer.name.toLowerCase().includes(q)));
    const key = sort.replace('-', '') as 'createdAt' | 'totalCents';
    rows = [...rows].sort((a, b) => (a[key] < b[key] ? -1 : 1) * (sort.startsWith('-') ? -1 : 1));

    const pageSize = 20;
    return HttpResponse.json<Page<Order>>({ data: rows.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: rows.length });
  }),
];
