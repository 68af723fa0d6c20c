import { useState } from 'react';
import { appUrl } from '../../lib/initial-data.ts';
import { isoDay } from './format.ts';

/** This month so far: the range an accountant usually asks for. */
function thisMonth(now = new Date()) {
  return { from: isoDay(new Date(now.getFullYear(), now.getMonth(), 1)), to: isoDay(now) };
}

/**
 * `Export CSV` of the orders and refunds of a range of days (UTC, both included): a plain download
 * of `GET /api/admin/orders.csv`, which the server streams.
 */
export function OrdersExport() {
  const [range, setRange] = useState(thisMonth);
  const valid = Boolean(range.from && range.to && range.from <= range.to);
  const href = appUrl(`/api/admin/orders.csv?from=${range.from}&to=${range.to}`);
  return (
    <fieldset className="admin-export">
      <legend className="visually-hidden">Export orders</legend>
      {(['from', 'to'] as const).map((end) => (
        <div key={end} className="admin-export-day">
          <label className="form-label small mb-0" htmlFor={`export-${end}`}>
            {end === 'from' ? 'From' : 'To'}
          </label>
          <input
            id={`export-${end}`}
            type="date"
            className="form-control form-control-sm"
            value={range[end]}
            max={end === 'from' ? range.to : undefined}
            min={end === 'to' ? range.from : undefined}
            onChange={(event) => setRange({ ...range, [end]: event.target.value })}
          />
        </div>
      ))}
      {valid ? (
        <a className="btn btn-outline-primary btn-sm" href={href} download={`orders-${range.from}-to-${range.to}.csv`}>
          Export CSV
        </a>
      ) : (
        <button type="button" className="btn btn-outline-primary btn-sm" disabled>
          Export CSV
        </button>
      )}
    </fieldset>
  );
}
