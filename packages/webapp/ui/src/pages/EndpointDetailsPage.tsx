import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { type EndpointSummary, type EventRow, get, post } from '../api.js';
import { DataTable } from '../components/DataTable.js';
import { Link } from '../components/Link.js';
import { StatusBadge } from '../components/StatusBadge.js';

const STATUSES = ['Failed', 'DeadLettered', 'Unsupported', 'Deferred', 'Pending', 'Completed', 'Skipped'];

interface BlockedSession {
  sessionId: string;
  blockingEventId: string;
  blockingStatus: string;
  pendingCount: number;
  deferredCount: number;
}

export function EndpointDetailsPage({ endpointId }: { endpointId: string }) {
  const client = useQueryClient();
  const enc = encodeURIComponent(endpointId);
  const [statuses, setStatuses] = useState<string[]>([
    'Failed',
    'DeadLettered',
    'Unsupported',
    'Deferred',
    'Pending',
  ]);
  const [eventType, setEventType] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);

  const details = useQuery({
    queryKey: ['endpoint', endpointId, 'details'],
    queryFn: () =>
      get<{ endpoint: EndpointSummary; yourRole: string; consumes: string[]; produces: string[] }>(
        `/api/endpoints/${enc}`,
      ),
  });
  const params = new URLSearchParams({ pageSize: '100' });
  if (statuses.length > 0) params.set('status', statuses.join(','));
  if (eventType) params.set('eventTypeId', eventType);
  if (sessionId) params.set('sessionId', sessionId);
  const events = useQuery({
    queryKey: ['endpoint', endpointId, 'events', params.toString()],
    queryFn: () => get<{ events: EventRow[] }>(`/api/endpoints/${enc}/events?${params}`),
  });
  const blocked = useQuery({
    queryKey: ['endpoint', endpointId, 'blocked-sessions'],
    queryFn: () => get<BlockedSession[]>(`/api/endpoints/${enc}/blocked-sessions`),
  });
  const bulk = useMutation({
    mutationFn: (action: 'resubmit' | 'skip') =>
      post<{ jobId: string; total: number }>(`/api/endpoints/${enc}/bulk`, { action, eventIds: selected }),
    onSuccess: (job, action) => {
      setNotice(`${action} started for ${job.total} event(s); progress appears as the endpoint updates.`);
      void client.invalidateQueries({ queryKey: ['endpoint', endpointId] });
    },
    onError: (error) => setNotice(error.message),
  });
  const reprocess = useMutation({
    mutationFn: (session: string) =>
      post(`/api/endpoints/${enc}/sessions/${encodeURIComponent(session)}/reprocess-deferred`),
    onSuccess: () => setNotice('Replay of deferred messages requested.'),
    onError: (error) => setNotice(error.message),
  });

  const columns: ColumnDef<EventRow, unknown>[] = [
    {
      header: 'Event',
      accessorKey: 'eventId',
      cell: (c) => (
        <Link to={`/endpoints/${enc}/events/${encodeURIComponent(String(c.getValue()))}`}>
          {String(c.getValue())}
        </Link>
      ),
    },
    { header: 'Status', accessorKey: 'status', cell: (c) => <StatusBadge status={String(c.getValue())} /> },
    { header: 'Session', accessorKey: 'sessionId' },
    { header: 'Event type', accessorKey: 'eventTypeId' },
    { header: 'Error', accessorFn: (r) => r.errorContent?.errorText ?? '' },
    { header: 'Resubmits', accessorKey: 'resubmitCount' },
    { header: 'Updated', accessorFn: (r) => new Date(r.updatedAt).toLocaleString() },
  ];
  const counts = details.data?.endpoint;
  if (details.error) return <p className="error">{details.error.message}</p>;

  return (
    <section>
      <h1>{endpointId}</h1>
      {counts && (
        <div className="tiles">
          <div className="tile tile-failed">
            <b>{counts.failedCount + counts.deadletterCount}</b> failed
          </div>
          <div className="tile tile-deferred">
            <b>{counts.deferredCount}</b> deferred
          </div>
          <div className="tile tile-pending">
            <b>{counts.pendingCount + counts.unsupportedCount}</b> pending
          </div>
          <div className="tile">
            your role: <b>{details.data?.yourRole}</b>
          </div>
        </div>
      )}
      <h2>Blocked sessions</h2>
      <table className="table" data-testid="blocked-sessions">
        <thead>
          <tr>
            <th>Session</th>
            <th>Blocked by</th>
            <th>Waiting</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(blocked.data ?? []).map((s) => (
            <tr key={s.sessionId}>
              <td>{s.sessionId}</td>
              <td>
                <Link to={`/endpoints/${enc}/events/${encodeURIComponent(s.blockingEventId)}`}>
                  {s.blockingEventId}
                </Link>{' '}
                <StatusBadge status={s.blockingStatus} />
              </td>
              <td>
                {s.deferredCount} deferred, {s.pendingCount} pending
              </td>
              <td>
                {s.deferredCount > 0 && (
                  <button type="button" onClick={() => reprocess.mutate(s.sessionId)}>
                    Reprocess deferred
                  </button>
                )}
              </td>
            </tr>
          ))}
          {(blocked.data ?? []).length === 0 && (
            <tr>
              <td colSpan={4} className="empty">
                No blocked sessions.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <h2>Events</h2>
      <div className="filters">
        {STATUSES.map((s) => (
          <label key={s} className="chip">
            <input
              type="checkbox"
              checked={statuses.includes(s)}
              onChange={(e) =>
                setStatuses(e.target.checked ? [...statuses, s] : statuses.filter((x) => x !== s))
              }
            />
            {s}
          </label>
        ))}
        <input placeholder="event type" value={eventType} onChange={(e) => setEventType(e.target.value)} />
        <input placeholder="session id" value={sessionId} onChange={(e) => setSessionId(e.target.value)} />
      </div>
      <div className="actions">
        <button type="button" disabled={selected.length === 0} onClick={() => bulk.mutate('resubmit')}>
          Resubmit selected ({selected.length})
        </button>
        <button type="button" disabled={selected.length === 0} onClick={() => bulk.mutate('skip')}>
          Skip selected
        </button>
        {notice && <span className="notice">{notice}</span>}
      </div>
      <DataTable
        data={events.data?.events ?? []}
        columns={columns}
        rowId={(r) => r.eventId}
        selectable
        onSelectionChange={setSelected}
        testId="events"
      />
    </section>
  );
}
