import { useSearchParams } from 'react-router';
import { SelectField } from '../../components/field.tsx';
import { useOrders } from './admin-api.ts';
import { moneyColumn, orderColumn, PagedTable, statusColumn } from './data-table.tsx';
import { dateTime, ORDER_STATUSES, STATUS_LABELS } from './format.ts';
import { OrdersExport } from './orders-export.tsx';
import { SearchForm, useSetParam } from './search-form.tsx';
import { PageHeader } from './ui.tsx';

export default function OrdersPage() {
  const [params] = useSearchParams();
  const setParam = useSetParam();
  const query = params.get('query') ?? '';
  const status = ORDER_STATUSES.find((s) => s === params.get('status')) ?? '';

  return (
    <>
      <PageHeader title="Orders">
        <OrdersExport />
      </PageHeader>
      <SearchForm placeholder="Order id, e-mail, name or kit">
        <SelectField
          id="order-status"
          label="Status"
          spacing="admin-filter"
          value={status}
          onChange={(e) => setParam('status', e.target.value)}
          none={<option value="">All statuses</option>}
          options={ORDER_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />
      </SearchForm>
      <PagedTable
        query={useOrders(query, status)}
        label="orders"
        empty={query || status ? 'No order matches this search.' : 'No orders yet.'}
        hover
        rowKey={(order) => order.id}
        columns={[
          orderColumn('text-nowrap'),
          { header: 'Date', className: 'text-nowrap', cell: (order) => dateTime(order.paid_at ?? order.created_at) },
          {
            header: 'Customer',
            cell: (order) => (
              <>
                <div>{order.name}</div>
                <div className="small text-body-secondary">{order.email}</div>
              </>
            ),
          },
          {
            header: 'Kits',
            cell: (order) =>
              order.lines.map((line) => (
                <div key={line.kit_id} className={line.refunded ? 'text-decoration-line-through' : undefined}>
                  {line.title}
                </div>
              )),
          },
          moneyColumn('Total', 'total'),
          statusColumn,
        ]}
      />
    </>
  );
}
