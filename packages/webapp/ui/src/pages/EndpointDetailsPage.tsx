import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, type EndpointSummary, type EventRow, ok } from '../api.js';
import { BlockedSessions } from '../components/BlockedSessions.js';
import { DataTable } from '../components/DataTable.js';
import { Link } from '../components/Link.js';
import { PagingFooter } from '../components/PagingFooter.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { BulkJobProgress, useBulkJob } from '../operator/BulkJobProgress.js';
import { plural } from '../operator/bulk-types.js';
import { usePagedQuery } from '../paged-query.js';
import { useNavigationNotice } from '../router.js';

export const EVENTS_PAGE_SIZE = 50;

/** The statuses that need an operator: shown by default while the endpoint has any of them. */
const NEEDS_ATTENTION = ['Failed', 'DeadLettered', 'Unsupported', 'Deferred', 'Pending'];
const STATUSES = [...NEEDS_ATTENTION, 'Completed', 'Skipped'];

export function EndpointDetailsPage({ endpointId }: { endpointId: string }) {
  const client = useQueryClient();
  const enc = encodeURIComponent(endpointId);
  // null until the operator picks statuses: then the endpoint's state decides what is worth showing.
  const [chosenStatuses, setStatuses] = useState<string[] | null>(null);
  const [eventType, setEventType] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [bulkComment, setBulkComment] = useState('');
  const [notice, setNotice] = useNavigationNotice();
  // The job "Resubmit/Skip selected" started: its live progress and a link to it stay on the page.
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useBulkJob(jobId);

  const details = useQuery({
    queryKey: ['endpoint', endpointId, 'details'],
    queryFn: () => ok(api.GET('/api/endpoints/{endpointId}', { params: { path: { endpointId } } })),
  });
  const counts = details.data?.endpoint;
  // A healthy endpoint shows its latest events of every status instead of an empty "needs attention" list.
  const healthy = counts?.status === 'Healthy';
  const statuses = chosenStatuses ?? (healthy ? STATUSES : NEEDS_ATTENTION);
  const query = {
    pageSize: EVENTS_PAGE_SIZE,
    ...(statuses.length > 0 ? { status: statuses.join(',') } : {}),
    ...(eventType ? { eventTypeId: eventType } : {}),
    ...(sessionId ? { sessionId } : {}),
  };
  const filterKey = JSON.stringify(query);
  // A new filter starts a new list: what was selected under the old one must not be acted on.
  const [selectionFilter, setSelectionFilter] = useState(filterKey);
  if (selectionFilter !== filterKey) {
    setSelectionFilter(filterKey);
    setSelected([]);
  }
  const events = usePagedQuery(
    ['endpoint', endpointId, 'events', filterKey],
    async (token) => {
      const page = await ok(
        api.GET('/api/endpoints/{endpointId}/events', {
          params: {
            path: { endpointId },
            query: token ? { ...query, continuationToken: token } : query,
          },
        }),
      );
      return { items: page.events, continuationToken: page.continuationToken };
    },
    (row) => row.eventId,
  );
  // Only rows still on screen can be acted on: a live update may have moved a selected row out of the list.
  const shownIds = new Set(events.rows.map((r) => r.eventId));
  const actionable = selected.filter((id) => shownIds.has(id));
  const bulk = useMutation({
    mutationFn: (action: 'resubmit' | 'skip') =>
      ok(
        api.POST('/api/endpoints/{endpointId}/bulk', {
          params: { path: { endpointId } },
          body: { action, eventIds: actionable, comment: bulkComment.trim() || null },
        }),
      ),
    onSuccess: (job, action) => {
      const verb = action === 'resubmit' ? 'Resubmit' : 'Skip';
      setNotice(`${verb} started for ${plural(job.total, 'event')}.`);
      setJobId(job.jobId);
      setSelected([]);
      setBulkComment('');
      void client.invalidateQueries({ queryKey: ['endpoint', endpointId] });
    },
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
    {
      header: 'Status',
      accessorKey: 'status',
      cell: (c) => <StatusBadge status={String(c.getValue())} retry={c.row.original.retry} />,
    },
    { header: 'Session', accessorKey: 'sessionId' },
    { header: 'Event type', accessorKey: 'eventTypeId' },
    { header: 'Error', accessorFn: (r) => r.errorContent?.errorText ?? '' },
    { header: 'Resubmits', accessorKey: 'resubmitCount' },
    { header: 'Updated', accessorFn: (r) => new Date(r.updatedAt).toLocaleString() },
  ];
  const total = counts && !eventType && !sessionId ? countOf(counts, statuses) : undefined;
  if (details.error) return <p className="error">{details.error.message}</p>;

  return (
    <section>
      <h1>{endpointId}</h1>
      {counts && (
        <div className="tiles">
          <div className="tile tile-failed">
            <b>{counts.failedCount + counts.deadletterCount}</b> failed
          </div>
          <div className="tile tile-retrying" title="Failed attempts the retry policy runs again">
            <b>{counts.retryingCount}</b> retrying
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
      <BlockedSessions endpointId={endpointId} onNotice={setNotice} />
      <p>
        <Link to={`/endpoints/${enc}/failure-groups`}>Failure groups on {endpointId}</Link>
      </p>
      <h2>Events</h2>
      {chosenStatuses === null && counts && (
        <p className="hint" data-testid="events-filter-hint">
          {healthy
            ? `Nothing needs attention on ${endpointId}: showing its latest events of every status.`
            : 'Showing the events that need attention; tick Completed or Skipped to see those too.'}
        </p>
      )}
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
        <button type="button" disabled={actionable.length === 0} onClick={() => bulk.mutate('resubmit')}>
          Resubmit selected ({actionable.length})
        </button>
        <button type="button" disabled={actionable.length === 0} onClick={() => bulk.mutate('skip')}>
          Skip selected ({actionable.length})
        </button>
        <input
          aria-label="bulk comment"
          placeholder="comment (optional)"
          maxLength={2000}
          value={bulkComment}
          onChange={(e) => setBulkComment(e.target.value)}
        />
        {notice && <span className="notice">{notice}</span>}
      </div>
      {job.data && (
        <div className="card" data-testid="selection-job">
          <BulkJobProgress job={job.data} />
          <Link to={`/bulk-jobs/${encodeURIComponent(job.data.jobId)}`}>Job details</Link>
        </div>
      )}
      {events.error && <p className="error">{events.error.message}</p>}
      <DataTable
        data={events.rows}
        columns={columns}
        rowId={(r) => r.eventId}
        selectable
        selection={actionable}
        onSelectionChange={setSelected}
        testId="events"
      />
      <PagingFooter
        shown={events.rows.length}
        total={total}
        hasMore={events.hasMore}
        loadingMore={events.loadingMore}
        onLoadMore={events.loadMore}
        noun="events"
      />
    </section>
  );
}

const COUNTED: Record<string, (c: EndpointSummary) => number> = {
  // The Failed list holds the stored Failed rows: retrying ones included (shown as Retrying).
  Failed: (c) => c.failedCount + c.retryingCount,
  DeadLettered: (c) => c.deadletterCount,
  Unsupported: (c) => c.unsupportedCount,
  Deferred: (c) => c.deferredCount,
  Pending: (c) => c.pendingCount,
};

/** The total the endpoint's status counts give for these statuses; unknown once a status is not counted. */
function countOf(counts: EndpointSummary, statuses: readonly string[]): number | undefined {
  if (statuses.length === 0 || statuses.some((s) => !(s in COUNTED))) return undefined;
  return statuses.reduce((sum, s) => sum + (COUNTED[s]?.(counts) ?? 0), 0);
}
