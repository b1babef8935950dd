/** The failure-group and bulk-job shapes of the API (`/api/failure-groups`, `/api/bulk-jobs`). */

export interface FailureGroup {
  signature: string;
  errorType: string;
  normalisedMessage: string;
  endpointIds: string[];
  eventCount: number;
  sessionCount: number;
  failedCount: number;
  deadLetteredCount: number;
  eventTypeIds: string[];
  firstSeen: string;
  lastSeen: string;
  exampleErrorText: string | null;
}

export interface BulkJob {
  jobId: string;
  action: 'resubmit' | 'skip';
  endpointIds: string[];
  filter: Record<string, unknown>;
  createdBy: string;
  comment: string | null;
  createdAt: string;
  finishedAt: string | null;
  total: number;
  processed: number;
  succeeded: number;
  refused: number;
  failed: number;
  remaining: number;
  errors: { eventId: string; message: string }[];
  state: 'running' | 'completed' | 'cancelled';
  cancelRequested: boolean;
  done: boolean;
  interrupted: boolean;
}

export interface BulkJobItem {
  position: number;
  endpointId: string;
  eventId: string;
  sessionId: string;
  outcome: 'pending' | 'sent' | 'refused' | 'failed';
  message: string | null;
  messageId: string | null;
}

/** "3 min", "2 h 5 min": how long something has lasted, for an operator's glance. */
export function durationText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a job's state reads as: running, interrupted (resumable), completed, cancelled. */
export function jobStateText(job: BulkJob): string {
  if (job.interrupted) return 'interrupted (resumable)';
  if (job.state === 'running' && job.cancelRequested) return 'cancelling';
  return job.state;
}
