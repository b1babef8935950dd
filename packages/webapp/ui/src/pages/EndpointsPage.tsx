import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { api, type EndpointSummary, ok } from '../api.js';
import { DataTable } from '../components/DataTable.js';
import { Link } from '../components/Link.js';
import { StatusBadge } from '../components/StatusBadge.js';

const columns: ColumnDef<EndpointSummary, unknown>[] = [
  {
    header: 'Endpoint',
    accessorKey: 'endpointId',
    cell: (c) => (
      <Link to={`/endpoints/${encodeURIComponent(String(c.getValue()))}`}>{String(c.getValue())}</Link>
    ),
  },
  { header: 'Status', accessorKey: 'status', cell: (c) => <StatusBadge status={String(c.getValue())} /> },
  { header: 'Failed', accessorFn: (r) => r.failedCount + r.deadletterCount },
  { header: 'Deferred', accessorKey: 'deferredCount' },
  { header: 'Pending', accessorFn: (r) => r.pendingCount + r.unsupportedCount },
  {
    header: 'Last change',
    id: 'lastStateChangeAt',
    accessorFn: (r) => r.lastStateChangeAt ?? '',
    cell: (c) => {
      const at = c.row.original.lastStateChangeAt;
      return at ? <time dateTime={at}>{new Date(at).toLocaleString()}</time> : 'never';
    },
  },
];

export function EndpointsPage() {
  const query = useQuery({
    queryKey: ['endpoints'],
    queryFn: () => ok(api.GET('/api/endpoints')),
  });
  return (
    <section>
      <h1>Endpoints</h1>
      {query.error && <p className="error">{String(query.error.message)}</p>}
      <DataTable data={query.data ?? []} columns={columns} rowId={(r) => r.endpointId} testId="endpoints" />
    </section>
  );
}
