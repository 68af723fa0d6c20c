import { Link, useSearchParams } from 'react-router';
import { useCustomers } from './admin-api.ts';
import { countColumn, moneyColumn, PagedTable, timeColumn } from './data-table.tsx';
import { SearchForm } from './search-form.tsx';
import { PageHeader } from './ui.tsx';

export default function CustomersPage() {
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';

  return (
    <>
      <PageHeader title="Customers" />
      <SearchForm placeholder="E-mail or name" />
      <PagedTable
        query={useCustomers(query)}
        label="customers"
        empty={query ? 'No customer matches this search.' : 'No customers yet.'}
        hover
        rowKey={(customer) => customer.id}
        columns={[
          {
            header: 'Customer',
            cell: (customer) => (
              <>
                <Link to={`/admin/customers/${customer.id}`}>{customer.name || customer.email}</Link>
                <div className="small text-body-secondary">
                  {customer.email}
                  {!customer.verified && <span className="badge text-bg-warning ms-2">Not verified</span>}
                </div>
              </>
            ),
          },
          timeColumn('Signed up', 'created_at'),
          countColumn('Orders', 'orders'),
          moneyColumn('Spent', 'spent'),
          timeColumn('Last sign-in', 'last_sign_in'),
        ]}
      />
    </>
  );
}
