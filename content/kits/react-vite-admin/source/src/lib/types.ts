export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'refunded' | 'cancelled';

export interface Order {
  id: string;
  number: string;
  customer: { name: string; email: string };
  items: number;
  totalCents: number;
  status: OrderStatus;
  createdAt: string;
}

export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface DashboardStats {
  revenueCents: number;
  revenueChange: number;
  orders: number;
  ordersChange: number;
  customers: number;
  conversionRate: number;
  series: { date: string; revenueCents: number; orders: number }[];
}
