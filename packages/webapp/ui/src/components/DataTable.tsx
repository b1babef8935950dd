import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type RowSelectionState,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { useState } from 'react';

interface Props<T> {
  readonly data: readonly T[];
  readonly columns: ColumnDef<T, unknown>[];
  readonly rowId: (row: T) => string;
  readonly selectable?: boolean;
  /** Selected row ids, owned by the caller so it can drop ids that left the list (bulk acts on these). */
  readonly selection?: readonly string[];
  readonly onSelectionChange?: (ids: string[]) => void;
  readonly testId?: string;
}

/** Sortable table over TanStack Table, with optional row selection for bulk actions. */
export function DataTable<T>({
  data,
  columns,
  rowId,
  selectable,
  selection = [],
  onSelectionChange,
  testId,
}: Props<T>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const rowSelection: RowSelectionState = Object.fromEntries(selection.map((id) => [id, true]));
  const table = useReactTable({
    data: data as T[],
    columns,
    state: { sorting, rowSelection },
    getRowId: rowId,
    enableRowSelection: selectable ?? false,
    onSortingChange: setSorting,
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater;
      onSelectionChange?.(Object.keys(next).filter((k) => next[k]));
    },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return (
    <table className="table" data-testid={testId}>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {selectable && (
              <th>
                <input
                  type="checkbox"
                  aria-label="select all shown"
                  checked={table.getIsAllRowsSelected()}
                  onChange={table.getToggleAllRowsSelectedHandler()}
                />
              </th>
            )}
            {group.headers.map((header) => (
              <th key={header.id}>
                <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
                  {flexRender(header.column.columnDef.header, header.getContext())}
                  {{ asc: ' ▲', desc: ' ▼' }[header.column.getIsSorted() as string] ?? ''}
                </button>
              </th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id} data-row-id={row.id}>
            {selectable && (
              <td>
                <input
                  type="checkbox"
                  aria-label={`select ${row.id}`}
                  checked={row.getIsSelected()}
                  onChange={row.getToggleSelectedHandler()}
                />
              </td>
            )}
            {row.getVisibleCells().map((cell) => (
              <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
            ))}
          </tr>
        ))}
        {table.getRowModel().rows.length === 0 && (
          <tr>
            <td colSpan={columns.length + (selectable ? 1 : 0)} className="empty">
              Nothing here.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
