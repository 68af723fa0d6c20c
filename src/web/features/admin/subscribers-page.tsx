import { SUBSCRIBERS_CSV_URL, useSubscribers } from './admin-api.ts';
import { count, dateTime } from './format.ts';
import { EmptyState, LoadMore, PageHeader, QueryState, TableCard } from './ui.tsx';

export default function SubscribersPage() {
  const subscribers = useSubscribers();
  const total = subscribers.data?.pages[0]?.total;
  const items = subscribers.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <PageHeader title="Subscribers">
        <a className="btn btn-outline-primary" href={SUBSCRIBERS_CSV_URL} download="subscribers.csv">
          Export CSV
        </a>
      </PageHeader>
      <QueryState query={subscribers} label="subscribers" />
      {total !== undefined && (
        <p className="admin-total">
          <strong>{count(total)}</strong> {total === 1 ? 'subscriber' : 'subscribers'}
        </p>
      )}
      {subscribers.data && items.length === 0 && <EmptyState>Nobody has subscribed yet.</EmptyState>}
      {items.length > 0 && (
        <TableCard footer={<LoadMore query={subscribers} />}>
          <table className="table admin-table mb-0">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Subscribed</th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={s.email}>
                  <td className="text-break">{s.email}</td>
                  <td className="text-nowrap">{dateTime(s.subscribed_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableCard>
      )}
    </>
  );
}
