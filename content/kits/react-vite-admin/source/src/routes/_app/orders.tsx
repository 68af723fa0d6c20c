import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { z } from 'zod';
import { ordersQuery } from '../../lib/api';
import type { Order } from '../../lib/types';

const searchSchema = z.object({
  page: z.number().int().min(1).catch(1),
  status: z.enum(['pending', 'paid', 'shipped', 'refunded', 'cancelled']).optional().catch(undefined),
  sort: z.enum(['createdAt', '-createdAt', 'totalCents', '-totalCents']).catch('-createdAt'),
  q: z.string().optional(),
});

export const Route = createFileRoute('/_app/orders')({
  validateSearch: searchSchema,
  component: OrdersPage,
});

const column = createColumnHelper<Order>();
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

const columns = [
  column.accessor('number', { header: 'Order' }),
  column.accessor((order) => order.customer.name, { id: 'customer', header: 'Customer' }),
  column.accessor('createdAt', { header: 'Date', cell: (info) => new Date(info.getValue()).toLocaleDateString('en-US') }),
  column.accessor('items', { header: 'Items' }),
  column.accessor('status', { header: 'Status', cell: (info) => <span className={`badge badge-${info.getValue()}`}>{info.getValue()}</span> }),
  column.accessor('totalCents', { header: 'Total', cell: (info) => usd.format(info.getValue() / 100) }),
];

function OrdersPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const { data, isFetching } = useQuery(ordersQuery(search));

  const table = useReactTable({
    data: data?.data ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    rowCount: data?.total ?? 0,
  });
  const pages = data ? Math.ceil(data.total / data.pageSize) : 1;

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Orders</h1>
      <table className={`w-full text-sm ${isFetching ? 'opacity-60' : ''}`}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} className="px-3 py-2 text-left font-medium text-slate-500">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className="border-t border-slate-100">
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-3 py-2">
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="flex items-center gap-2 text-sm">
        <button type="button" disabled={search.page <= 1} onClick={() => navigate({ search: (s) => ({ ...s, page: s.page - 1 }) })}>
          Previous
        </button>
        <span>
          Page {search.page} of {pages}
        </span>
        <button type="button" disabled={search.page >= pages} onClick={() => navigate({ search: (s) => ({ ...s, page: s.page + 1 }) })}>
          Next
        </button>
      </nav>
    </div>
  );
}
