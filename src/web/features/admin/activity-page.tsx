import { useActivity } from './admin-api.ts';
import { dateTime } from './format.ts';
import { EmptyState, LoadMore, PageHeader, QueryState, TableCard } from './ui.tsx';

/** Every owner action, newest first; read-only by design. */
export default function ActivityPage() {
  const activity = useActivity();
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <PageHeader title="Activity" />
      <p className="text-body-secondary small">Every owner action, newest first. The log cannot be edited.</p>
      <QueryState query={activity} label="the activity log" />
      {activity.data && items.length === 0 && <EmptyState>No owner action yet.</EmptyState>}
      {items.length > 0 && (
        <TableCard footer={<LoadMore query={activity} />}>
          <table className="table admin-table mb-0">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Record</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {items.map((row) => (
                <tr key={`${row.at}|${row.action}|${row.target}`}>
                  <td className="text-nowrap">{dateTime(row.at)}</td>
                  <td className="text-break">{row.actor}</td>
                  <td className="text-nowrap">{row.action}</td>
                  <td className="text-nowrap">{row.target}</td>
                  <td className="small">{row.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableCard>
      )}
    </>
  );
}
