interface StatCardProps {
  label: string;
  value: string;
  /** Relative change against the previous period, e.g. 0.124 for +12.4% */
  change?: number;
}

export function StatCard({ label, value, change }: StatCardProps) {
  return (
    <div className="rounded-card bg-white p-5 shadow-sm dark:bg-slate-900">
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-2 text-2xl font-semibold tabular-nums">{value}</p>
      {change !== undefined && (
        <p className={`mt-1 text-xs font-medium ${change >= 0 ? 'text-emerald-600' : 'text-rose-600'}`}>
          {change >= 0 ? '▲' : '▼'} {Math.abs(change * 100).toFixed(1)}% vs previous 30 days
        </p>
      )}
    </div>
  );
}
