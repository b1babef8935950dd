import { NimBusError, NimBusErrorCode } from '@nimbus/core';
/** What a bulk job does to every event it matched. */
export type BulkAction = 'resubmit' | 'skip';

/** `running` until the last event was acted on (`completed`) or an operator cancelled it (`cancelled`). */
export type BulkJobState = 'running' | 'completed' | 'cancelled';

/**
 * What one event of a job came to: `sent` (the control message is on its way; the engine decides),
 * `refused` (the WebApp or the engine would not act on it, with the reason), `failed` (an error), or
 * still `pending`.
 */
export type BulkItemOutcome = 'pending' | 'sent' | 'refused' | 'failed';

/** One event a job acts on, in the order it acts. */
export interface BulkJobItem {
  readonly position: number;
  readonly endpointId: string;
  readonly eventId: string;
  /** The row's session ("" when unknown: a job started from a list of ids). */
  readonly sessionId: string;
  readonly outcome: BulkItemOutcome;
  /** The refusal reason or error message. */
  readonly message: string | null;
  /** The control message sent, when one was. */
  readonly messageId: string | null;
}

/** Who started a job, so a WebApp that resumes it after a restart acts as them (with their roles then). */
export interface BulkJobStarter {
  readonly userId: string;
  /** The cap of the API token that started it (null: a browser session, the user's own roles). */
  readonly maxRole: string | null;
}

/** One bulk job as stored: what it does, how far it got, and who runs it. */
export interface StoredBulkJob {
  readonly jobId: string;
  readonly action: BulkAction;
  /** The first of `endpointIds` (kept for the id-list jobs of one endpoint). */
  readonly endpointId: string;
  readonly endpointIds: readonly string[];
  /** What was matched: the filter as given (JSON-safe), or `{ eventIds }` for a list of ids. */
  readonly filter: Readonly<Record<string, unknown>>;
  readonly createdBy: string;
  /** Null on jobs stored by an older WebApp (those are resumed by an operator only). */
  readonly startedBy: BulkJobStarter | null;
  readonly comment: string | null;
  readonly total: number;
  readonly processed: number;
  /** Events whose control message was sent (the engine decides, and may still refuse). */
  readonly succeeded: number;
  readonly refused: number;
  readonly failed: number;
  /** The first problems (refused and failed events), for a quick look; every one is an item. */
  readonly errors: readonly { readonly eventId: string; readonly message: string }[];
  readonly state: BulkJobState;
  /** An operator asked to stop it; the instance running it stops before the next event. */
  readonly cancelRequested: boolean;
  /** The WebApp instance running it. */
  readonly owner: string;
  /** Epoch ms; the owner renews it with every progress write. A running job past it was interrupted. */
  readonly leaseUntil: number;
  readonly createdAt: number;
  readonly finishedAt: number | null;
}

/** The progress the running instance writes (never the cancel request, which another instance may set). */
export type BulkJobProgress = Pick<
  StoredBulkJob,
  | 'jobId'
  | 'processed'
  | 'succeeded'
  | 'refused'
  | 'failed'
  | 'errors'
  | 'state'
  | 'owner'
  | 'leaseUntil'
  | 'finishedAt'
>;

export interface BulkJobListRequest {
  readonly limit: number;
  /** Only jobs created before this job id's job (paging newest first). */
  readonly before?: string | null;
}

/**
 * Where bulk jobs and their events live, so every WebApp instance sees the same progress and history and a
 * job outlasts a restart. The SQL one keeps them beside the identity tables (the WebApp's own state); the
 * memory one is for a single process.
 */
export interface BulkJobStore {
  initialize(): Promise<void>;
  /** Stores the job and its events (positions 0…n-1) together. */
  create(job: StoredBulkJob, items: readonly Omit<BulkJobItem, 'position'>[]): Promise<void>;
  /**
   * Stores the events of a job created without them (a filter job takes its snapshot in the background) at
   * positions 0…n-1 and sets its total to n, together.
   */
  addItems(jobId: string, items: readonly Omit<BulkJobItem, 'position'>[]): Promise<void>;
  /** Writes the job's progress (the owner's own columns; the cancel request is left as it is). */
  save(progress: BulkJobProgress): Promise<void>;
  get(jobId: string): Promise<StoredBulkJob | null>;
  /** Newest first. */
  list(request: BulkJobListRequest): Promise<StoredBulkJob[]>;
  /** Every job still `running` (by some instance or by none: interrupted), oldest first. */
  listRunning(): Promise<StoredBulkJob[]>;
  /** Items in position order from `offset`; `outcome` narrows them. */
  items(
    jobId: string,
    page: { offset: number; limit: number; outcome?: BulkItemOutcome },
  ): Promise<BulkJobItem[]>;
  setItemOutcome(
    jobId: string,
    position: number,
    outcome: Exclude<BulkItemOutcome, 'pending'>,
    detail: { message: string | null; messageId: string | null },
  ): Promise<void>;
  /**
   * The engine refused an item recorded as `sent`: it becomes `refused` with the reason and the job's counts
   * move with it, in one step. False when the item is not `sent` (already settled).
   */
  markRefused(jobId: string, position: number, reason: string): Promise<boolean>;
  requestCancel(jobId: string): Promise<void>;
  /** Takes over a running job whose lease ran out (resume); false when another owner holds it. */
  claim(jobId: string, owner: string, leaseUntil: number, now: number): Promise<boolean>;
  /** Deletes finished jobs (and their events) created before `before` (epoch ms); returns how many jobs. */
  pruneFinished(before: number): Promise<number>;
  close(): Promise<void>;
}

export function createMemoryBulkJobStore(): BulkJobStore {
  const jobs = new Map<string, StoredBulkJob>();
  const itemsOf = new Map<string, BulkJobItem[]>();
  const job = (jobId: string) => {
    const found = jobs.get(jobId);
    if (!found) throw new NimBusError(NimBusErrorCode.InvalidArgument, `Bulk job '${jobId}' does not exist`);
    return found;
  };
  return {
    initialize: async () => {},
    create: async (created, items) => {
      if (jobs.has(created.jobId))
        throw new NimBusError(NimBusErrorCode.InvalidArgument, `Bulk job '${created.jobId}' exists already`);
      jobs.set(created.jobId, created);
      itemsOf.set(
        created.jobId,
        items.map((item, position) => ({ ...item, position })),
      );
    },
    addItems: async (jobId, items) => {
      jobs.set(jobId, { ...job(jobId), total: items.length });
      itemsOf.set(
        jobId,
        items.map((item, position) => ({ ...item, position })),
      );
    },
    save: async (progress) => {
      // Only the owner's columns: the snapshot may carry a stale cancel request, which another caller sets.
      const { jobId, processed, succeeded, refused, failed, errors, state, owner, leaseUntil, finishedAt } =
        progress;
      jobs.set(jobId, {
        ...job(jobId),
        ...{ processed, succeeded, refused, failed, errors, state, owner, leaseUntil, finishedAt },
      });
    },
    get: async (jobId) => jobs.get(jobId) ?? null,
    list: async ({ limit, before }) => {
      const all = [...jobs.values()].sort(
        (a, b) => b.createdAt - a.createdAt || (a.jobId < b.jobId ? 1 : -1),
      );
      const from = before ? all.findIndex((j) => j.jobId === before) + 1 : 0;
      return all.slice(from, from + limit);
    },
    listRunning: async () =>
      [...jobs.values()].filter((j) => j.state === 'running').sort((a, b) => a.createdAt - b.createdAt),
    items: async (jobId, { offset, limit, outcome }) =>
      (itemsOf.get(jobId) ?? [])
        .filter((item) => outcome === undefined || item.outcome === outcome)
        .slice(offset, offset + limit),
    setItemOutcome: async (jobId, position, outcome, detail) => {
      const items = itemsOf.get(jobId) ?? [];
      const item = items[position];
      if (item) items[position] = { ...item, outcome, ...detail };
    },
    markRefused: async (jobId, position, reason) => {
      const items = itemsOf.get(jobId) ?? [];
      const item = items[position];
      if (!item || item.outcome !== 'sent') return false;
      items[position] = { ...item, outcome: 'refused', message: reason };
      const current = job(jobId);
      jobs.set(jobId, { ...current, succeeded: current.succeeded - 1, refused: current.refused + 1 });
      return true;
    },
    requestCancel: async (jobId) => {
      const current = job(jobId);
      if (current.state === 'running') jobs.set(jobId, { ...current, cancelRequested: true });
    },
    claim: async (jobId, owner, leaseUntil, now) => {
      const current = jobs.get(jobId);
      if (!current || current.state !== 'running' || current.leaseUntil >= now) return false;
      jobs.set(jobId, { ...current, owner, leaseUntil });
      return true;
    },
    pruneFinished: async (before) => {
      let pruned = 0;
      for (const [id, stored] of jobs)
        if (stored.state !== 'running' && stored.createdAt < before) {
          jobs.delete(id);
          itemsOf.delete(id);
          pruned += 1;
        }
      return pruned;
    },
    close: async () => {},
  };
}
