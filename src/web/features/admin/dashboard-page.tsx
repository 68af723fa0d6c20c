import { type CSSProperties, Fragment, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useNewMessages, useOrders, useSummary } from './admin-api.ts';
import {
  CardTable,
  countColumn,
  DataTable,
  moneyColumn,
  orderColumn,
  statusColumn,
  timeColumn,
} from './data-table.tsx';
import { count, dateTime, day, money, percent } from './format.ts';
import { PRESETS, type PresetId, rangeFromParams } from './range.ts';
import SalesChart from './sales-chart.tsx';
import { EmptyState, PageHeader, QueryState, ScrollBox, TableCard } from './ui.tsx';

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="card admin-figure">
      <div className="card-body">
        <p className="admin-figure-label">{label}</p>
        {/* Its length sizes it to fit its card on one line (admin.scss). */}
        <p className="admin-figure-value" style={{ '--chars': value.length } as CSSProperties}>
          {value}
        </p>
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
          {(
            [
              ['from', 'From', from, setFrom, { max: to }],
              ['to', 'To', to, setTo, { min: from }],
            ] as const
          ).map(([id, label, value, set, bound]) => (
            <Fragment key={id}>
              <label className="form-label mb-0" htmlFor={`range-${id}`}>
                {label}
              </label>
              <input
                id={`range-${id}`}
                type="date"
                className="form-control form-control-sm"
                value={value}
                {...bound}
                required
                onChange={(e) => set(e.target.value)}
              />
            </Fragment>
          ))}
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
  const messages = useNewMessages(5);
  const data = summary.data;
  const latestOrders = latest.data?.pages[0]?.items.slice(0, 5) ?? [];
  const newMessages = messages.data?.items ?? [];

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
                <ScrollBox label="Sales by day" className="table-responsive admin-scroll">
                  <DataTable
                    rows={data.by_day}
                    small
                    id="sales-by-day-table"
                    caption="Sales by day"
                    rowKey={(row) => row.date}
                    columns={[
                      { header: 'Day', rowHeader: true, className: 'fw-normal', cell: (row) => day(row.date) },
                      moneyColumn('Gross', 'gross'),
                      moneyColumn('Refunds', 'refunds'),
                      countColumn('Orders', 'orders'),
                    ]}
                  />
                </ScrollBox>
              </details>
            </div>
          </section>

          <div className="row g-4">
            <div className="col-12 col-xl-6">
              <CardTable
                title="Top kits"
                rows={data.top_kits}
                empty="No kits sold in this range."
                rowKey={(kit) => kit.id}
                columns={[
                  { header: 'Kit', cell: (kit) => kit.title },
                  countColumn('Units', 'units'),
                  moneyColumn('Gross', 'gross'),
                ]}
              />
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
            <DataTable
              rows={latestOrders}
              rowKey={(order) => order.id}
              columns={[
                orderColumn(),
                { header: 'Customer', cell: (order) => order.email },
                timeColumn('Date', 'created_at'),
                moneyColumn('Total', 'total'),
                statusColumn,
              ]}
            />
          )}
        </TableCard>
      </div>
    </>
  );
}
