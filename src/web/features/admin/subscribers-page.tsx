import { useSearchParams } from 'react-router';
import { SUBSCRIBERS_CSV_URL, useSubscribers } from './admin-api.ts';
import { PagedTable, timeColumn } from './data-table.tsx';
import { count } from './format.ts';
import { SearchForm } from './search-form.tsx';
import { PageHeader } from './ui.tsx';

export default function SubscribersPage() {
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';
  const subscribers = useSubscribers(query);
  const total = subscribers.data?.pages[0]?.total;
  const noun = total === 1 ? 'subscriber' : 'subscribers';
  return (
    <>
      <PageHeader title="Subscribers">
        <a className="btn btn-outline-primary" href={SUBSCRIBERS_CSV_URL} download="subscribers.csv">
          Export CSV
        </a>
      </PageHeader>
      <SearchForm placeholder="E-mail address" />
      <PagedTable
        query={subscribers}
        label="subscribers"
        empty={query ? 'No subscriber matches this search.' : 'Nobody has subscribed yet.'}
        caption="Subscribers, newest first"
        before={
          total !== undefined &&
          total > 0 && (
            <p className="admin-total">
              <strong>{count(total)}</strong> {query ? `${noun} ${total === 1 ? 'matches' : 'match'}` : noun}
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
