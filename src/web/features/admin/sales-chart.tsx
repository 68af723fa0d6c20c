import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import type { OwnerSummary } from '../../../common/schemas/owner.ts';
import { day, money } from './format.ts';

// Only what a bar chart needs: Chart.js leaves the rest out of the bundle.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/**
 * Gross sales and refunds per day as bars. The canvas is a picture for sighted owners; the same
 * numbers are in the table beside it (`describedBy`), which screen readers use.
 */
export default function SalesChart({ days, describedBy }: { days: OwnerSummary['by_day']; describedBy: string }) {
  return (
    <div className="admin-chart">
      <Bar
        role="img"
        aria-label="Sales by day: gross sales and refunds in US dollars"
        aria-describedby={describedBy}
        data={{
          labels: days.map((d) => day(d.date)),
          datasets: [
            { label: 'Gross', data: days.map((d) => d.gross), backgroundColor: '#4f46e5' },
            { label: 'Refunds', data: days.map((d) => d.refunds), backgroundColor: '#dc3545' },
          ],
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          interaction: { mode: 'index', intersect: false },
          plugins: {
            legend: { position: 'bottom' },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${money(Number(item.raw))}` } },
          },
          scales: {
            x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8 } },
            y: { beginAtZero: true, ticks: { callback: (value) => money(Number(value)) } },
          },
        }}
      />
    </div>
  );
}
