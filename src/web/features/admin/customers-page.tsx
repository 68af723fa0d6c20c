import { Link, useSearchParams } from 'react-router';
import { useCustomers } from './admin-api.ts';
import { count, dateTime, money } from './format.ts';
import { SearchForm } from './search-form.tsx';
import { EmptyState, LoadMore, PageHeader, QueryState, TableCard } from './ui.tsx';

export default function CustomersPage() {
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';
  const customers = useCustomers(query);
  const items = customers.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <PageHeader title="Customers" />
      <SearchForm placeholder="E-mail or name" />
      <QueryState query={customers} label="customers" />
      {customers.data && items.length === 0 && (
        <EmptyState>{query ? 'No customer matches this search.' : 'No customers yet.'}</EmptyState>
      )}
      {items.length > 0 && (
        <TableCard footer={<LoadMore query={customers} />}>
          <table className="table table-hover admin-table mb-0">
            <thead>
              <tr>
                <th scope="col">Customer</th>
                <th scope="col">Signed up</th>
                <th scope="col" className="text-end">
                  Orders
                </th>
                <th scope="col" className="text-end">
                  Spent
                </th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {items.map((customer) => (
                <tr key={customer.id}>
                  <td>
                    <Link to={`/admin/customers/${customer.id}`}>{customer.name || customer.email}</Link>
                    <div className="small text-body-secondary">
                      {customer.email}
                      {!customer.verified && <span className="badge text-bg-warning ms-2">Not verified</span>}
                    </div>
                  </td>
                  <td className="text-nowrap">{dateTime(customer.created_at)}</td>
                  <td className="text-end">{count(customer.orders)}</td>
                  <td className="text-end">{money(customer.spent)}</td>
                  <td className="text-nowrap">{dateTime(customer.last_sign_in)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableCard>
      )}
    </>
  );
}
