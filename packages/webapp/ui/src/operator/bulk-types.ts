import type { Answer } from '../api.js';

/** The failure-group and bulk-job shapes of the API (`/api/failure-groups`, `/api/bulk-jobs`). */
export type FailureGroup = Answer<'/api/failure-groups'>[number];
export type BulkJob = Answer<'/api/bulk-jobs/{jobId}'>;
export type BulkJobItem = Answer<'/api/bulk-jobs/{jobId}/items'>['items'][number];

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
