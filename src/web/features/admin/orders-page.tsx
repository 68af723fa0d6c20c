import { Link, useSearchParams } from 'react-router';
import { useOrders } from './admin-api.ts';
import { dateTime, money, ORDER_STATUSES, STATUS_LABELS } from './format.ts';
import { SearchForm } from './search-form.tsx';
import { EmptyState, LoadMore, PageHeader, QueryState, StatusBadge, TableCard } from './ui.tsx';

export default function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const query = params.get('query') ?? '';
  const status = ORDER_STATUSES.find((s) => s === params.get('status')) ?? '';
  const orders = useOrders(query, status);
  const items = orders.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <PageHeader title="Orders" />
      <SearchForm placeholder="Order id, e-mail, name or kit">
        <div className="admin-filter">
          <label htmlFor="order-status" className="form-label">
            Status
          </label>
          <select
            id="order-status"
            className="form-select"
            value={status}
            onChange={(e) =>
              setParams(
                (current) => {
                  const next = new URLSearchParams(current);
                  if (e.target.value) next.set('status', e.target.value);
                  else next.delete('status');
                  return next;
                },
                { replace: true },
              )
            }
          >
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </SearchForm>
      <QueryState query={orders} label="orders" />
      {orders.data && items.length === 0 && (
        <EmptyState>{query || status ? 'No order matches this search.' : 'No orders yet.'}</EmptyState>
      )}
      {items.length > 0 && (
        <TableCard footer={<LoadMore query={orders} />}>
          <table className="table table-hover admin-table mb-0">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Date</th>
                <th scope="col">Customer</th>
                <th scope="col">Kits</th>
                <th scope="col" className="text-end">
                  Total
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {items.map((order) => (
                <tr key={order.id}>
                  <td className="text-nowrap">
                    <Link to={`/admin/orders/${encodeURIComponent(order.id)}`}>{order.id}</Link>
                  </td>
                  <td className="text-nowrap">{dateTime(order.paid_at ?? order.created_at)}</td>
                  <td>
                    <div>{order.name}</div>
                    <div className="small text-body-secondary">{order.email}</div>
                  </td>
                  <td>
                    {order.lines.map((line) => (
                      <div key={line.kit_id} className={line.refunded ? 'text-decoration-line-through' : undefined}>
                        {line.title}
                      </div>
                    ))}
                  </td>
                  <td className="text-end">{money(order.total)}</td>
                  <td>
                    <StatusBadge status={order.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableCard>
      )}
    </>
  );
}
