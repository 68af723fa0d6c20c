import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { count, dateTime, money, type OrderStatus } from './format.ts';
import { EmptyState, LoadMore, QueryState, StatusBadge, TableCard } from './ui.tsx';

/** One column of a console table: its heading and what each row shows in it. */
export type Column<T> = {
  /** The heading; null for the actions column (named "Actions" for screen readers only). */
  header: string | null;
  /** A figure: the heading and the cells align right. */
  end?: boolean;
  /** Classes of each cell. */
  className?: string;
  /** The cell heads its row (`<th scope="row">`). */
  rowHeader?: boolean;
  cell: (row: T) => ReactNode;
};

export type TableProps<T> = {
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  small?: boolean;
  hover?: boolean;
  id?: string;
  /** A caption for screen readers. */
  caption?: string;
  rowClassName?: (row: T) => string | undefined;
};

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/**
 * The table every console list uses: headings from the columns, a row for each record. Below 768 px
 * each row stacks into "label: value" lines (admin.scss), so no table is wider than a phone.
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  small,
  hover,
  id,
  caption,
  rowClassName,
  empty,
}: TableProps<T> & { rows: T[] /** Shown instead of the table when there is no row. */; empty?: ReactNode }) {
  if (empty !== undefined && rows.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <table className={classes('table', small && 'table-sm', hover && 'table-hover', 'admin-table', 'mb-0')} id={id}>
      {caption && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header ?? ''} scope="col" className={classes(column.end && 'text-end')}>
              {column.header ?? <span className="visually-hidden">Actions</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className={rowClassName?.(row)}>
            {columns.map((column) => {
              const className = classes(column.end && 'text-end', column.className);
              // The label a phone shows beside the value once the table is stacked (admin.scss).
              const label = column.header ?? '';
              return column.rowHeader ? (
                <th key={label} scope="row" className={className} data-label={label}>
                  <div className="admin-cell">{column.cell(row)}</div>
                </th>
              ) : (
                <td key={label} className={className} data-label={label}>
                  <div className="admin-cell">{column.cell(row)}</div>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A titled card holding one table (or its empty text). */
export function CardTable<T>({
  title,
  footer,
  ...table
}: Parameters<typeof DataTable<T>>[0] & { title?: string; footer?: ReactNode }) {
  return (
    <TableCard title={title} footer={footer}>
      <DataTable {...table} />
    </TableCard>
  );
}

type PagedQuery<T> = Parameters<typeof QueryState>[0]['query'] &
  Parameters<typeof LoadMore>[0]['query'] & { data?: { pages: { items: T[] }[] } };

/**
 * A cursor-paged list: loading and failure states, the empty text, the table and "Load more".
 * `before` stands between the states and the table (a total, say).
 */
export function PagedTable<T>({
  query,
  label,
  empty,
  before,
  ...table
}: TableProps<T> & { query: PagedQuery<T>; label: string; empty: ReactNode; before?: ReactNode }) {
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <QueryState query={query} label={label} />
      {before}
      {query.data && items.length === 0 && <EmptyState>{empty}</EmptyState>}
      {items.length > 0 && (
        <TableCard footer={<LoadMore query={query} />}>
          <DataTable rows={items} {...table} />
        </TableCard>
      )}
    </>
  );
}

export function OrderLink({ id }: { id: string }) {
  return <Link to={`/admin/orders/${encodeURIComponent(id)}`}>{id}</Link>;
}

type Time = string | null | undefined;

/** Columns that several tables share, each showing one field of the row. */
export const moneyColumn = <K extends string>(header: string, key: K): Column<Record<K, number>> => ({
  header,
  end: true,
  cell: (row) => money(row[key]),
});
export const countColumn = <K extends string>(header: string, key: K): Column<Record<K, number>> => ({
  header,
  end: true,
  cell: (row) => count(row[key]),
});
export const timeColumn = <K extends string>(header: string, key: K): Column<Record<K, Time>> => ({
  header,
  className: 'text-nowrap',
  cell: (row) => dateTime(row[key]),
});
export const orderColumn = (className?: string): Column<{ id: string }> => ({
  header: 'Order',
  className,
  cell: (row) => <OrderLink id={row.id} />,
});
export const statusColumn: Column<{ status: string }> = {
  header: 'Status',
  cell: (row) => <StatusBadge status={row.status as OrderStatus} />,
};
