import { uuidv7 } from '@nimbus/core';
import { HttpError } from '../http/http-error.js';
import type { LiveUpdateHub } from '../live/live-update-hub.js';

export interface BulkJobStatus {
  readonly jobId: string;
  readonly action: string;
  readonly endpointId: string;
  readonly total: number;
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly errors: readonly { readonly eventId: string; readonly message: string }[];
  readonly done: boolean;
}

const CONCURRENCY = 4;
const KEEP_FINISHED = 100;

/** Runs bulk operator actions in the background and reports progress (polling and SSE `bulkprogress`). */
export class BulkJobs {
  readonly #jobs = new Map<string, BulkJobStatus>();

  constructor(private readonly hub: LiveUpdateHub) {}

  get(jobId: string): BulkJobStatus | null {
    return this.#jobs.get(jobId) ?? null;
  }

  start(
    action: string,
    endpointId: string,
    eventIds: readonly string[],
    run: (eventId: string) => Promise<void>,
  ): { job: BulkJobStatus; finished: Promise<BulkJobStatus> } {
    const jobId = uuidv7();
    let status: BulkJobStatus = {
      jobId,
      action,
      endpointId,
      total: eventIds.length,
      processed: 0,
      succeeded: 0,
      failed: 0,
      errors: [],
      done: eventIds.length === 0,
    };
    this.#jobs.set(jobId, status);
    this.#trim();
    const update = (change: Partial<BulkJobStatus>) => {
      status = { ...status, ...change };
      this.#jobs.set(jobId, status);
      this.hub.publish({
        type: 'bulkprogress',
        jobId,
        endpointId,
        processed: status.processed,
        total: status.total,
        done: status.done,
      });
    };
    const queue = [...eventIds];
    const worker = async () => {
      for (let eventId = queue.shift(); eventId !== undefined; eventId = queue.shift()) {
        try {
          await run(eventId);
          update({ processed: status.processed + 1, succeeded: status.succeeded + 1 });
        } catch (error) {
          const message =
            error instanceof HttpError || error instanceof Error ? error.message : String(error);
          update({
            processed: status.processed + 1,
            failed: status.failed + 1,
            errors: [...status.errors, { eventId, message }],
          });
        }
      }
    };
    const initial = status;
    const finished = Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker)).then(
      () => {
        update({ done: true });
        return status;
      },
    );
    return { job: initial, finished };
  }

  #trim() {
    if (this.#jobs.size <= KEEP_FINISHED) return;
    for (const [id, job] of this.#jobs) {
      if (this.#jobs.size <= KEEP_FINISHED) break;
      if (job.done) this.#jobs.delete(id);
    }
  }
}
