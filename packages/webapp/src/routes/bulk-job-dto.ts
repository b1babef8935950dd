import { z } from 'zod';
import type { BulkJobStatus } from '../operator/bulk-jobs.js';

export const BulkStatusDto = z.object({
  jobId: z.string(),
  action: z.enum(['resubmit', 'skip']),
  endpointId: z.string(),
  endpointIds: z.array(z.string()),
  /** What the job matched: the filter as given, or `{ eventIds }`. */
  filter: z.record(z.string(), z.unknown()),
  createdBy: z.string(),
  comment: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  total: z.number(),
  processed: z.number(),
  /** Events whose control message was sent. */
  succeeded: z.number(),
  refused: z.number(),
  failed: z.number(),
  remaining: z.number(),
  /** The first refused and failed events, `refused (reason)` / `failed (error)`. */
  errors: z.array(z.object({ eventId: z.string(), message: z.string() })),
  state: z.enum(['running', 'completed', 'cancelled']),
  cancelRequested: z.boolean(),
  done: z.boolean(),
  /** Running, but the instance running it stopped before it finished; POST …/resume continues it. */
  interrupted: z.boolean(),
  /** Running with no events yet: the job is still reading the events its filter matches. */
  collecting: z.boolean(),
});

export const BulkItemDto = z.object({
  position: z.number(),
  endpointId: z.string(),
  eventId: z.string(),
  sessionId: z.string(),
  outcome: z.enum(['pending', 'sent', 'refused', 'failed']),
  message: z.string().nullable(),
  messageId: z.string().nullable(),
});

export function bulkStatusDto(job: BulkJobStatus): z.input<typeof BulkStatusDto> {
  return {
    ...job,
    endpointIds: [...job.endpointIds],
    filter: { ...job.filter },
    errors: [...job.errors],
    createdAt: new Date(job.createdAt).toISOString(),
    finishedAt: job.finishedAt === null ? null : new Date(job.finishedAt).toISOString(),
  };
}
