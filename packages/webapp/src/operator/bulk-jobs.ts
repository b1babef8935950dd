import { type Clock, type Logger, uuidv7 } from '@nimbus/core';
import { HttpError } from '../http/http-error.js';
import type { LiveUpdateHub } from '../live/live-update-hub.js';
import type { BulkJobError, BulkJobStore, StoredBulkJob } from './bulk-job-store.js';

export interface BulkJobStatus {
  readonly jobId: string;
  readonly action: string;
  readonly endpointId: string;
  readonly total: number;
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly errors: readonly BulkJobError[];
  readonly done: boolean;
  /** The instance running it stopped before it finished (a restart or a crash); the rest was not run. */
  readonly interrupted: boolean;
}

const CONCURRENCY = 4;
/** Each progress write extends the owner's lease by this much; past it an unfinished job reads as interrupted. */
const LEASE_MS = 30_000;
const KEEP_FINISHED_MS = 7 * 24 * 3_600_000;

/**
 * Runs bulk operator actions in the background. Progress is stored (a table beside the identity tables), so
 * every WebApp instance reports the same job, and it outlasts a restart; the running instance also pushes
 * `bulkprogress` to its own browsers.
 */
export class BulkJobs {
  readonly #instance = uuidv7();

  constructor(
    private readonly hub: LiveUpdateHub,
    private readonly store: BulkJobStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async get(jobId: string): Promise<BulkJobStatus | null> {
    const job = await this.store.get(jobId);
    return job ? this.#status(job) : null;
  }

  async start(
    action: string,
    endpointId: string,
    eventIds: readonly string[],
    run: (eventId: string) => Promise<void>,
  ): Promise<{ job: BulkJobStatus; finished: Promise<BulkJobStatus> }> {
    const now = this.clock.now();
    let job: StoredBulkJob = {
      jobId: uuidv7(),
      action,
      endpointId,
      total: eventIds.length,
      processed: 0,
      succeeded: 0,
      failed: 0,
      errors: [],
      done: eventIds.length === 0,
      owner: this.#instance,
      leaseUntil: now + LEASE_MS,
      createdAt: now,
    };
    await this.store.create(job);
    void this.store.pruneFinished(now - KEEP_FINISHED_MS).catch((error: unknown) => {
      this.logger.warn({ error }, 'Could not prune finished bulk jobs');
    });
    // Progress writes of one job are chained, so the stored row only ever moves forward.
    let writes: Promise<void> = Promise.resolve();
    const update = (change: Partial<StoredBulkJob>) => {
      job = { ...job, ...change, leaseUntil: this.clock.now() + LEASE_MS };
      const snapshot = job;
      writes = writes
        .then(() => this.store.save(snapshot))
        .catch((error: unknown) => {
          this.logger.warn({ error, jobId: snapshot.jobId }, 'Could not store bulk job progress');
        });
      this.hub.publish({
        type: 'bulkprogress',
        jobId: job.jobId,
        endpointId,
        processed: job.processed,
        total: job.total,
        done: job.done,
      });
    };
    const queue = [...eventIds];
    const worker = async () => {
      for (let eventId = queue.shift(); eventId !== undefined; eventId = queue.shift()) {
        try {
          await run(eventId);
          update({ processed: job.processed + 1, succeeded: job.succeeded + 1 });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          // A refusal keeps its code, so a client tells "needs acknowledgement" from "not found" or a fault.
          const code = error instanceof HttpError ? { code: error.code } : {};
          update({
            processed: job.processed + 1,
            failed: job.failed + 1,
            errors: [...job.errors, { eventId, message, ...code }],
          });
        }
      }
    };
    const initial = this.#status(job);
    const finished = Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker)).then(
      async () => {
        update({ done: true });
        await writes;
        return this.#status(job);
      },
    );
    return { job: initial, finished };
  }

  #status(job: StoredBulkJob): BulkJobStatus {
    return {
      jobId: job.jobId,
      action: job.action,
      endpointId: job.endpointId,
      total: job.total,
      processed: job.processed,
      succeeded: job.succeeded,
      failed: job.failed,
      errors: job.errors,
      done: job.done,
      interrupted: !job.done && job.leaseUntil < this.clock.now(),
    };
  }
}
