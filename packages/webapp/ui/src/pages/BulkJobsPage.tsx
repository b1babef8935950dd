import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.js';
import { Link } from '../components/Link.js';
import { BulkJobProgress, useBulkJob } from '../operator/BulkJobProgress.js';
import { type BulkJob, type BulkJobItem, jobStateText } from '../operator/bulk-types.js';

const enc = encodeURIComponent;

/** What a job matched, in words: `failure group "Error: …"`, `3 ids`, `status Failed, event type X`. */
function filterText(filter: Record<string, unknown>): string {
  const parts = Object.entries(filter).map(([key, value]) =>
    Array.isArray(value)
      ? `${key} ${value.length > 5 ? `${value.length} values` : value.join(', ')}`
      : `${key} ${String(value)}`,
  );
  return parts.length === 0 ? 'every failed, dead-lettered and unsupported event' : parts.join('; ');
}

/** The history of bulk operations: who, when, what, outcome; each opens to its events. */
export function BulkJobsPage() {
  const jobs = useQuery({
    queryKey: ['bulk-jobs', 'list'],
    // Jobs started on another WebApp instance appear without a push from this one.
    refetchInterval: 10_000,
    queryFn: () => ok(api.GET('/api/bulk-jobs', { params: { query: { limit: 100 } } })),
  });
  return (
    <section>
      <h1>Bulk operations</h1>
      {jobs.error && <p className="error">{jobs.error.message}</p>}
      <table className="table" data-testid="bulk-jobs">
        <thead>
          <tr>
            <th>Started</th>
            <th>By</th>
            <th>Action</th>
            <th>Endpoints</th>
            <th>What</th>
            <th>Outcome</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {(jobs.data ?? []).map((job) => (
            <tr key={job.jobId} data-job-id={job.jobId}>
              <td>
                <Link to={`/bulk-jobs/${enc(job.jobId)}`}>{new Date(job.createdAt).toLocaleString()}</Link>
              </td>
              <td>{job.createdBy}</td>
              <td>{job.action}</td>
              <td>{job.endpointIds.join(', ')}</td>
              <td>{filterText(job.filter)}</td>
              <td>
                {job.collecting
                  ? 'reading the events it acts on…'
                  : `${job.succeeded} sent, ${job.refused} refused, ${job.failed} failed of ${job.total}`}
              </td>
              <td data-testid="job-state">{jobStateText(job)}</td>
            </tr>
          ))}
          {jobs.data?.length === 0 && (
            <tr>
              <td colSpan={7} className="empty">
                No bulk operations yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

/** One job: live progress, cancel or resume, and what each event came to (refusals with their reason). */
export function BulkJobPage({ jobId }: { jobId: string }) {
  const client = useQueryClient();
  const [outcome, setOutcome] = useState<'' | BulkJobItem['outcome']>('');
  const [notice, setNotice] = useState<string | null>(null);
  const job = useBulkJob(jobId);
  const items = useQuery({
    queryKey: ['bulk-jobs', 'items', jobId, outcome],
    queryFn: () =>
      ok(
        api.GET('/api/bulk-jobs/{jobId}/items', {
          params: { path: { jobId }, query: { limit: 500, ...(outcome ? { outcome } : {}) } },
        }),
      ),
  });
  const act = useMutation({
    mutationFn: (what: 'cancel' | 'resume') =>
      ok(
        what === 'cancel'
          ? api.POST('/api/bulk-jobs/{jobId}/cancel', { params: { path: { jobId } } })
          : api.POST('/api/bulk-jobs/{jobId}/resume', { params: { path: { jobId } } }),
      ),
    onSuccess: (_job, what) => {
      setNotice(
        what === 'cancel' ? 'Cancel requested: the job stops before its next event.' : 'Job resumed.',
      );
      void client.invalidateQueries({ queryKey: ['bulk-jobs'] });
    },
    onError: (error) => setNotice(error.message),
  });
  if (job.error) return <p className="error">{job.error.message}</p>;
  if (!job.data) return <p>Loading…</p>;
  const current = job.data;
  return (
    <section>
      <p>
        <Link to="/bulk-jobs">← Bulk operations</Link>
      </p>
      <h1>
        Bulk {current.action} by {current.createdBy}
      </h1>
      <dl className="props">
        <dt>Started</dt>
        <dd>{new Date(current.createdAt).toLocaleString()}</dd>
        <dt>Endpoints</dt>
        <dd>{current.endpointIds.join(', ')}</dd>
        <dt>What</dt>
        <dd>{filterText(current.filter)}</dd>
        {current.comment && (
          <>
            <dt>Comment</dt>
            <dd>{current.comment}</dd>
          </>
        )}
        {current.finishedAt && (
          <>
            <dt>Finished</dt>
            <dd>{new Date(current.finishedAt).toLocaleString()}</dd>
          </>
        )}
      </dl>
      <BulkJobProgress job={current} />
      <div className="actions">
        {current.state === 'running' && !current.interrupted && (
          <button type="button" onClick={() => act.mutate('cancel')}>
            Cancel job
          </button>
        )}
        {current.interrupted && (
          <>
            <span className="warn">The WebApp running this job stopped before it finished.</span>
            <button type="button" onClick={() => act.mutate('resume')}>
              Resume ({current.remaining} left)
            </button>
            <button type="button" onClick={() => act.mutate('cancel')}>
              Cancel job
            </button>
          </>
        )}
        {notice && <span className="notice">{notice}</span>}
      </div>
      <h2>Events</h2>
      <select
        aria-label="outcome filter"
        value={outcome}
        onChange={(e) => setOutcome(e.target.value as BulkJobItem['outcome'])}
      >
        <option value="">all outcomes</option>
        {['pending', 'sent', 'refused', 'failed'].map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <table className="table" data-testid="bulk-items">
        <thead>
          <tr>
            <th>Endpoint</th>
            <th>Event</th>
            <th>Session</th>
            <th>Outcome</th>
          </tr>
        </thead>
        <tbody>
          {(items.data?.items ?? []).map((item) => (
            <tr key={item.position} data-event-id={item.eventId} data-outcome={item.outcome}>
              <td>{item.endpointId}</td>
              <td>
                <Link to={`/endpoints/${enc(item.endpointId)}/events/${enc(item.eventId)}`}>
                  {item.eventId}
                </Link>
              </td>
              <td>{item.sessionId}</td>
              <td>
                {item.outcome === 'refused' || item.outcome === 'failed'
                  ? `${item.outcome} (${item.message})`
                  : item.outcome}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
