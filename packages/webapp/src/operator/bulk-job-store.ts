/** An event a bulk job did not act on: why, and the refusal's error code when it was refused. */
export interface BulkJobError {
  readonly eventId: string;
  readonly message: string;
  readonly code?: string;
}

/** One bulk job as stored: what it does, how far it got, and who runs it. */
export interface StoredBulkJob {
  readonly jobId: string;
  readonly action: string;
  readonly endpointId: string;
  readonly total: number;
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly errors: readonly BulkJobError[];
  readonly done: boolean;
  /** The WebApp instance running it. */
  readonly owner: string;
  /** Epoch ms; the owner renews it with every progress write. An unfinished job past it was interrupted. */
  readonly leaseUntil: number;
  readonly createdAt: number;
}

/**
 * Where bulk jobs live, so every WebApp instance sees the same progress and it outlasts a restart. The SQL
 * one keeps them beside the identity tables (the WebApp's own state); the memory one is for a single process.
 */
export interface BulkJobStore {
  initialize(): Promise<void>;
  create(job: StoredBulkJob): Promise<void>;
  /** Writes the job's progress (the owner's own row). */
  save(job: StoredBulkJob): Promise<void>;
  get(jobId: string): Promise<StoredBulkJob | null>;
  /** Deletes finished jobs created before `before` (epoch ms); returns how many. */
  pruneFinished(before: number): Promise<number>;
  close(): Promise<void>;
}

export function createMemoryBulkJobStore(): BulkJobStore {
  const jobs = new Map<string, StoredBulkJob>();
  return {
    initialize: async () => {},
    create: async (job) => {
      if (jobs.has(job.jobId)) throw new Error(`Bulk job '${job.jobId}' exists already`);
      jobs.set(job.jobId, job);
    },
    save: async (job) => {
      jobs.set(job.jobId, job);
    },
    get: async (jobId) => jobs.get(jobId) ?? null,
    pruneFinished: async (before) => {
      let pruned = 0;
      for (const [id, job] of jobs)
        if (job.done && job.createdAt < before) {
          jobs.delete(id);
          pruned += 1;
        }
      return pruned;
    },
    close: async () => {},
  };
}
