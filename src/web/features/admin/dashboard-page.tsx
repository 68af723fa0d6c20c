import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMessages, useOrders, useSummary } from './admin-api.ts';
import { count, dateTime, day, money, percent } from './format.ts';
import { PRESETS, type PresetId, rangeFromParams } from './range.ts';
import SalesChart from './sales-chart.tsx';
import { EmptyState, PageHeader, QueryState, StatusBadge, TableCard } from './ui.tsx';

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="card admin-figure">
      <div className="card-body">
        <p className="admin-figure-label">{label}</p>
        <p className="admin-figure-value">{value}</p>
        {hint && <p className="admin-figure-hint">{hint}</p>}
      </div>
    </div>
  );
}

function RangePicker() {
  const [params, setParams] = useSearchParams();
  const range = rangeFromParams(params);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const choose = (preset: PresetId) =>
    setParams(preset === 'custom' ? { range: preset, from: range.from, to: range.to } : { range: preset }, {
      replace: true,
      preventScrollReset: true,
    });
  return (
    <div className="admin-range">
      <fieldset className="btn-group flex-wrap" aria-label="Range">
        {PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            className={`btn btn-sm ${range.preset === preset.id ? 'btn-primary' : 'btn-outline-primary'}`}
            aria-pressed={range.preset === preset.id}
            onClick={() => {
              if (preset.id === 'custom') {
                setFrom(range.from);
                setTo(range.to);
              }
              choose(preset.id);
            }}
          >
            {preset.label}
          </button>
        ))}
      </fieldset>
      {range.preset === 'custom' && (
        <form
          className="admin-range-custom"
          onSubmit={(event) => {
            event.preventDefault();
            if (from && to && from <= to) setParams({ range: 'custom', from, to }, { replace: true });
          }}
        >
          <label className="form-label mb-0" htmlFor="range-from">
            From
          </label>
          <input
            id="range-from"
            type="date"
            className="form-control form-control-sm"
            value={from}
            max={to}
            required
            onChange={(e) => setFrom(e.target.value)}
          />
          <label className="form-label mb-0" htmlFor="range-to">
            To
          </label>
          <input
            id="range-to"
            type="date"
            className="form-control form-control-sm"
            value={to}
            min={from}
            required
            onChange={(e) => setTo(e.target.value)}
          />
          <button type="submit" className="btn btn-sm btn-primary">
            Apply
          </button>
        </form>
      )}
    </div>
  );
}

export default function DashboardPage() {
  const [params] = useSearchParams();
  const { from, to } = rangeFromParams(params);
  const summary = useSummary(from, to);
  const latest = useOrders('', '');
  const messages = useMessages('new');
  const data = summary.data;
  const latestOrders = latest.data?.pages[0]?.items.slice(0, 5) ?? [];
  const newMessages = messages.data?.items.slice(0, 5) ?? [];

  return (
    <>
      <PageHeader title="Dashboard">
        <RangePicker />
      </PageHeader>
      <p className="text-body-secondary small">{from === to ? day(from) : `${day(from)} – ${day(to)}`}</p>
      <QueryState query={summary} label="the figures" />
      {data && (
        <>
          <section className="admin-figures" aria-label="Figures for the range">
            <Figure label="Gross sales" value={money(data.gross)} />
            <Figure label="Refunds" value={money(data.refunds)} />
            <Figure label="Net" value={money(data.net)} />
            <Figure label="Paid orders" value={count(data.orders)} />
            <Figure label="New customers" value={count(data.customers)} />
            <Figure label="Checkouts started" value={count(data.checkouts)} />
            <Figure label="Conversion" value={percent(data.conversion)} hint="paid orders per checkout" />
          </section>

          <section className="card admin-card mb-4">
            <h2 className="card-header h6 mb-0">Sales by day</h2>
            <div className="card-body">
              {data.by_day.length === 0 ? (
                <EmptyState>No sales in this range.</EmptyState>
              ) : (
                <SalesChart days={data.by_day} describedBy="sales-by-day-table" />
              )}
              <details className="mt-3">
                <summary>Sales by day as a table</summary>
                <div className="table-responsive admin-scroll">
                  <table className="table table-sm admin-table mb-0" id="sales-by-day-table">
                    <caption className="visually-hidden">Sales by day</caption>
                    <thead>
                      <tr>
                        <th scope="col">Day</th>
                        <th scope="col" className="text-end">
                          Gross
                        </th>
                        <th scope="col" className="text-end">
                          Refunds
                        </th>
                        <th scope="col" className="text-end">
                          Orders
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.by_day.map((row) => (
                        <tr key={row.date}>
                          <th scope="row" className="fw-normal">
                            {day(row.date)}
                          </th>
                          <td className="text-end">{money(row.gross)}</td>
                          <td className="text-end">{money(row.refunds)}</td>
                          <td className="text-end">{count(row.orders)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </details>
            </div>
          </section>

          <div className="row g-4">
            <div className="col-12 col-xl-6">
              <TableCard title="Top kits">
                {data.top_kits.length === 0 ? (
                  <EmptyState>No kits sold in this range.</EmptyState>
                ) : (
                  <table className="table admin-table mb-0">
                    <thead>
                      <tr>
                        <th scope="col">Kit</th>
                        <th scope="col" className="text-end">
                          Units
                        </th>
                        <th scope="col" className="text-end">
                          Gross
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.top_kits.map((kit) => (
                        <tr key={kit.id}>
                          <td>{kit.title}</td>
                          <td className="text-end">{count(kit.units)}</td>
                          <td className="text-end">{money(kit.gross)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </TableCard>
            </div>
            <div className="col-12 col-xl-6">
              <TableCard title="Unanswered messages" footer={<Link to="/admin/messages">All messages</Link>}>
                <QueryState query={messages} label="messages" />
                {messages.data && newMessages.length === 0 && (
                  <EmptyState>No message is waiting for an answer.</EmptyState>
                )}
                {newMessages.length > 0 && (
                  <ul className="list-group list-group-flush">
                    {newMessages.map((m) => (
                      <li className="list-group-item" key={m.id}>
                        <div className="d-flex justify-content-between gap-2">
                          <strong className="text-truncate">{m.name}</strong>
                          <small className="text-body-secondary text-nowrap">{dateTime(m.created_at)}</small>
                        </div>
                        <p className="mb-0 small text-body-secondary text-truncate">{m.message}</p>
                      </li>
                    ))}
                  </ul>
                )}
              </TableCard>
            </div>
          </div>
        </>
      )}

      <div className="mt-4">
        <TableCard title="Latest orders" footer={<Link to="/admin/orders">All orders</Link>}>
          <QueryState query={latest} label="orders" />
          {latest.data && latestOrders.length === 0 && <EmptyState>No orders yet.</EmptyState>}
          {latestOrders.length > 0 && (
            <table className="table admin-table mb-0">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Date</th>
                  <th scope="col" className="text-end">
                    Total
                  </th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {latestOrders.map((order) => (
                  <tr key={order.id}>
                    <td>
                      <Link to={`/admin/orders/${encodeURIComponent(order.id)}`}>{order.id}</Link>
                    </td>
                    <td>{order.email}</td>
                    <td className="text-nowrap">{dateTime(order.created_at)}</td>
                    <td className="text-end">{money(order.total)}</td>
                    <td>
                      <StatusBadge status={order.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </TableCard>
      </div>
    </>
  );
}
