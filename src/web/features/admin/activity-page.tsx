import { useActivity } from './admin-api.ts';
import { PagedTable, timeColumn } from './data-table.tsx';
import { PageHeader } from './ui.tsx';

/** Every owner action, newest first; read-only by design. */
export default function ActivityPage() {
  return (
    <>
      <PageHeader title="Activity" />
      <p className="text-body-secondary small">Every owner action, newest first. The log cannot be edited.</p>
      <PagedTable
        query={useActivity()}
        label="the activity log"
        empty="No owner action yet."
        rowKey={(row) => `${row.at}|${row.action}|${row.target}`}
        columns={[
          timeColumn('When', 'at'),
          { header: 'Who', className: 'text-break', cell: (row) => row.actor },
          { header: 'Action', className: 'text-nowrap', cell: (row) => row.action },
          { header: 'Record', className: 'text-nowrap', cell: (row) => row.target },
          { header: 'Detail', className: 'small', cell: (row) => row.detail ?? '' },
        ]}
      />
    </>
  );
}
