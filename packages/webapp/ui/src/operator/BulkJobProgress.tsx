import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';
import { type BulkJob, jobStateText } from './bulk-types.js';

/** One job's progress, re-read whenever the live stream reports progress of any job. */
export function useBulkJob(jobId: string | null) {
  return useQuery({
    queryKey: ['bulk-jobs', 'job', jobId],
    enabled: jobId !== null,
    // Progress is pushed only by the instance running the job: a job run by another WebApp is polled.
    refetchInterval: (query) => (query.state.data && !query.state.data.done ? 2_000 : false),
    queryFn: () => ok(api.GET('/api/bulk-jobs/{jobId}', { params: { path: { jobId: jobId ?? '' } } })),
  });
}

export function BulkJobProgress({ job }: { job: BulkJob }) {
  if (job.collecting)
    return (
      <div className="bulk-progress" data-testid="bulk-progress" data-state="collecting" data-done={false}>
        <progress aria-label="bulk job progress" />
        <span>
          <b>{job.action}</b> reading the events it acts on… ·{' '}
          <span data-testid="bulk-state">{jobStateText(job)}</span>
        </span>
      </div>
    );
  const percent = job.total === 0 ? 100 : Math.round((job.processed / job.total) * 100);
  return (
    <div className="bulk-progress" data-testid="bulk-progress" data-state={job.state} data-done={job.done}>
      <progress max={job.total || 1} value={job.processed} aria-label="bulk job progress" />
      <span>
        <b>{job.action}</b> {job.processed} of {job.total} ({percent}%) ·{' '}
        <span className="ok">{job.succeeded} sent</span>
        {' · '}
        <span className={job.refused > 0 ? 'warn' : ''}>{job.refused} refused</span>
        {' · '}
        <span className={job.failed > 0 ? 'error' : ''}>{job.failed} failed</span> · {job.remaining} remaining
        · <span data-testid="bulk-state">{jobStateText(job)}</span>
      </span>
    </div>
  );
}
