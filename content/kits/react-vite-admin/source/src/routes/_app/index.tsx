import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { StatCard } from '../../components/StatCard';
import { dashboardQuery } from '../../lib/api';

export const Route = createFileRoute('/_app/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(dashboardQuery),
  component: DashboardPage,
});

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

function DashboardPage() {
  const { data } = useSuspenseQuery(dashboardQuery);
  const series = data.series.map((point) => ({ ...point, revenue: point.revenueCents / 100 }));

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Dashboard</h1>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Revenue (30 days)" value={usd.format(data.revenueCents / 100)} change={data.revenueChange} />
        <StatCard label="Orders" value={data.orders.toLocaleString('en-US')} change={data.ordersChange} />
        <StatCard label="Customers" value={data.customers.toLocaleString('en-US')} />
        <StatCard label="Conversion" value={`${(data.conversionRate * 100).toFixed(1)}%`} />
      </div>
      <section className="rounded-card bg-white p-5 shadow-sm">
        <h2 className="mb-4 text-sm font-medium text-slate-500">Revenue</h2>
        <ResponsiveContainer width="100%" height={280}>
          <AreaChart data={series}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tickLine={false} axisLine={false} />
            <YAxis tickFormatter={(v: number) => usd.format(v)} tickLine={false} axisLine={false} width={80} />
            <Tooltip formatter={(v: number) => usd.format(v)} />
            <Area dataKey="revenue" stroke="var(--color-accent)" fill="var(--color-accent-soft)" strokeWidth={2} />
          </AreaChart>
        </ResponsiveContainer>
      </section>
    </div>
  );
}
