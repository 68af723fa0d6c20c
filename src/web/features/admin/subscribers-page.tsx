import { SUBSCRIBERS_CSV_URL, useSubscribers } from './admin-api.ts';
import { PagedTable, timeColumn } from './data-table.tsx';
import { count } from './format.ts';
import { PageHeader } from './ui.tsx';

export default function SubscribersPage() {
  const subscribers = useSubscribers();
  const total = subscribers.data?.pages[0]?.total;
  return (
    <>
      <PageHeader title="Subscribers">
        <a className="btn btn-outline-primary" href={SUBSCRIBERS_CSV_URL} download="subscribers.csv">
          Export CSV
        </a>
      </PageHeader>
      <PagedTable
        query={subscribers}
        label="subscribers"
        empty="Nobody has subscribed yet."
        before={
          total !== undefined && (
            <p className="admin-total">
              <strong>{count(total)}</strong> {total === 1 ? 'subscriber' : 'subscribers'}
            </p>
          )
        }
        rowKey={(s) => s.email}
        columns={[
          { header: 'E-mail', className: 'text-break', cell: (s) => s.email },
          timeColumn('Subscribed', 'subscribed_at'),
        ]}
      />
    </>
  );
}
