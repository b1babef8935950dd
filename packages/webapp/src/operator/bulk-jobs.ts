import { type Clock, type Logger, NimBusError, NimBusErrorCode, uuidv7 } from '@nimbus/core';
import { HttpError } from '../http/http-error.js';
import type { LiveUpdateHub } from '../live/live-update-hub.js';
import type {
  BulkAction,
  BulkJobItem,
  BulkJobProgress,
  BulkJobStore,
  StoredBulkJob,
} from './bulk-job-store.js';
import { EventLoopPacer } from './yield-to-event-loop.js';

export interface BulkJobStatus extends Omit<StoredBulkJob, 'owner' | 'leaseUntil'> {
  readonly remaining: number;
  readonly done: boolean;
  /** Running, but the instance running it stopped before it finished (a restart or a crash): resumable. */
  readonly interrupted: boolean;
  /** Running with no events yet: the job is still reading the events its filter matches (its snapshot). */
  readonly collecting: boolean;
}

type Target = Omit<BulkJobItem, 'position'>;

/**
 * Reads the events a filter job acts on (its snapshot), page by page; `goOn(found)` after each page says
 * whether to read on (false: the job was cancelled or its instance stops), and then it resolves with null.
 */
export type BulkTargetCollector = (
  job: StoredBulkJob,
  goOn: (found: number) => Promise<boolean>,
) => Promise<Target[] | null>;

/** What a job does to one event: resolves with the control message sent; a 409 is a refusal. */
export type BulkItemRun = (item: BulkJobItem) => Promise<{ readonly messageId: string | null }>;

export interface BulkJobSpec {
  readonly jobId: string;
  readonly action: BulkAction;
  readonly endpointIds: readonly string[];
  readonly filter: Readonly<Record<string, unknown>>;
  readonly createdBy: string;
  readonly startedBy: StoredBulkJob['startedBy'];
  readonly comment: string | null;
}

const CONCURRENCY = 4;
/** Each progress write extends the owner's lease by this much; past it a running job reads as interrupted. */
const LEASE_MS = 30_000;
const KEEP_FINISHED_MS = 7 * 24 * 3_600_000;
const MAX_LISTED_ERRORS = 100;
/** Pending items read at a time. */
const CHUNK = 200;
/** Live progress is pushed at most this often (and always when the job ends). */
const PUSH_EVERY_MS = 500;
/** How often a running job reads whether an operator asked it to stop. */
const CANCEL_READ_EVERY_MS = 250;

/**
 * Runs bulk operator actions in the background over a stored snapshot of the events they act on. Progress,
 * outcomes per event and the history live in the job store (a table beside the identity tables), so every
 * WebApp instance reports the same job and it outlasts a restart: a job whose instance stopped reads
 * `interrupted` and resumes where it stopped. The running instance pushes `bulkprogress` to its browsers.
 */
export class BulkJobs {
  readonly #instance = uuidv7();
  readonly #running = new Map<string, Promise<BulkJobStatus>>();
  /** Jobs of this instance an operator cancelled through it (read at once; other instances' via the store). */
  readonly #cancelledHere = new Set<string>();
  #stopping = false;

  constructor(
    private readonly hub: LiveUpdateHub,
    private readonly store: BulkJobStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly collect: BulkTargetCollector | null = null,
  ) {}

  async get(jobId: string): Promise<BulkJobStatus | null> {
    const job = await this.store.get(jobId);
    return job ? this.status(job) : null;
  }

  async list(limit: number, before: string | null): Promise<BulkJobStatus[]> {
    return (await this.store.list({ limit, before })).map((job) => this.status(job));
  }

  items(jobId: string, page: Parameters<BulkJobStore['items']>[1]): Promise<BulkJobItem[]> {
    return this.store.items(jobId, page);
  }

  /**
   * Stores the job with its events and starts it; `finished` settles when the last event was acted on. Without
   * `targets` the job is stored at once with none and reads its filter's events itself (the collector), so the
   * start answers at once however many events the filter matches.
   */
  async start(
    spec: BulkJobSpec,
    targets: readonly Target[] | 'collect',
    run: BulkItemRun,
  ): Promise<{ job: BulkJobStatus; finished: Promise<BulkJobStatus> }> {
    if (targets === 'collect' && this.collect === null)
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'BulkJobs was created without a target collector',
      );
    const now = this.clock.now();
    const events = targets === 'collect' ? [] : targets;
    const collecting = targets === 'collect';
    const job: StoredBulkJob = {
      ...spec,
      endpointId: spec.endpointIds[0] ?? '',
      total: events.length,
      processed: 0,
      succeeded: 0,
      refused: 0,
      failed: 0,
      errors: [],
      state: events.length === 0 && !collecting ? 'completed' : 'running',
      cancelRequested: false,
      owner: this.#instance,
      leaseUntil: now + LEASE_MS,
      createdAt: now,
      finishedAt: events.length === 0 && !collecting ? now : null,
    };
    await this.store.create(job, events);
    void this.store.pruneFinished(now - KEEP_FINISHED_MS).catch((error: unknown) => {
      this.logger.warn({ error }, 'Could not prune finished bulk jobs');
    });
    return { job: this.status(job), finished: this.#run(job, run) };
  }

  /** Takes over an interrupted job and acts on the events it had not reached; null when it cannot be claimed. */
  async resume(jobId: string, run: BulkItemRun): Promise<{ finished: Promise<BulkJobStatus> } | null> {
    if (this.#stopping) return null;
    const now = this.clock.now();
    if (!(await this.store.claim(jobId, this.#instance, now + LEASE_MS, now))) return null;
    const job = await this.store.get(jobId);
    if (!job) return null;
    return { finished: this.#run(job, run) };
  }

  /** Jobs still running whose instance stopped (their lease ran out or was released): to be resumed. */
  async interrupted(): Promise<StoredBulkJob[]> {
    const now = this.clock.now();
    return (await this.store.listRunning()).filter(
      (job) => !this.#running.has(job.jobId) && job.leaseUntil < now,
    );
  }

  /**
   * This instance stops: its running jobs stop before their next event (the ones under way finish) and
   * release their lease, so the next WebApp (or another instance) resumes them at once, not 30 s later.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.allSettled([...this.#running.values()]);
  }

  /** Asks the running instance to stop; a job nobody runs any more (interrupted) is cancelled at once. */
  async cancel(job: BulkJobStatus): Promise<void> {
    await this.store.requestCancel(job.jobId);
    if (this.#running.has(job.jobId)) this.#cancelledHere.add(job.jobId);
    if (job.interrupted) {
      const stored = await this.store.get(job.jobId);
      if (stored && stored.state === 'running')
        await this.store.save({ ...stored, state: 'cancelled', finishedAt: this.clock.now() });
    }
  }

  /**
   * The engine has the last word: an event whose control message it refused (its `Refused` audit row names
   * the message) is reported `refused (reason)`, not as done. Checked for the sent items given.
   */
  async settleRefusals(
    jobId: string,
    items: readonly BulkJobItem[],
    refusalOf: (item: BulkJobItem) => Promise<string | null>,
  ): Promise<BulkJobItem[]> {
    const settled: BulkJobItem[] = [];
    for (const item of items) {
      const reason = item.outcome === 'sent' && item.messageId ? await refusalOf(item) : null;
      if (reason !== null && (await this.store.markRefused(jobId, item.position, reason)))
        settled.push({ ...item, outcome: 'refused', message: reason });
      else settled.push(item);
    }
    return settled;
  }

  status(job: StoredBulkJob): BulkJobStatus {
    const { owner: _owner, leaseUntil, ...rest } = job;
    return {
      ...rest,
      remaining: job.total - job.processed,
      done: job.state !== 'running',
      interrupted: job.state === 'running' && !this.#running.has(job.jobId) && leaseUntil < this.clock.now(),
      collecting: isCollecting(job),
    };
  }

  #run(initial: StoredBulkJob, run: BulkItemRun): Promise<BulkJobStatus> {
    if (initial.state !== 'running') return Promise.resolve(this.status(initial));
    const pacer = new EventLoopPacer();
    const finished = this.#work(initial, run, pacer).finally(() => {
      pacer.close();
      this.#running.delete(initial.jobId);
      this.#cancelledHere.delete(initial.jobId);
    });
    this.#running.set(initial.jobId, finished);
    return finished;
  }

  async #work(initial: StoredBulkJob, run: BulkItemRun, pacer: EventLoopPacer): Promise<BulkJobStatus> {
    let job = initial;
    let writes: Promise<void> = Promise.resolve();
    let pushedAt = 0;
    const write = (work: () => Promise<void>) => {
      writes = writes.then(work).catch((error: unknown) => {
        this.logger.warn({ error, jobId: job.jobId }, 'Could not store bulk job progress');
      });
    };
    const progress = (change: Partial<BulkJobProgress>) => {
      job = { ...job, ...change, leaseUntil: this.clock.now() + LEASE_MS };
      const snapshot: BulkJobProgress = job;
      write(() => this.store.save(snapshot));
      const now = this.clock.now();
      if (job.state !== 'running' || now - pushedAt >= PUSH_EVERY_MS) {
        pushedAt = now;
        this.#push(job);
      }
    };
    const settle = (
      item: BulkJobItem,
      outcome: 'sent' | 'refused' | 'failed',
      message: string | null,
      id: string | null,
    ) => {
      write(() => this.store.setItemOutcome(job.jobId, item.position, outcome, { message, messageId: id }));
      const errors =
        outcome === 'sent' || job.errors.length >= MAX_LISTED_ERRORS
          ? job.errors
          : [...job.errors, { eventId: item.eventId, message: `${outcome} (${message})` }];
      progress({
        processed: job.processed + 1,
        succeeded: job.succeeded + (outcome === 'sent' ? 1 : 0),
        refused: job.refused + (outcome === 'refused' ? 1 : 0),
        failed: job.failed + (outcome === 'failed' ? 1 : 0),
        errors,
      });
    };
    // A cancel through this instance stops at once; one through another instance is read from the store, at most
    // every 250 ms.
    let cancelReadAt = 0;
    const cancelRequested = async () => {
      if (this.#cancelledHere.has(job.jobId)) return true;
      const now = performance.now();
      if (now - cancelReadAt < CANCEL_READ_EVERY_MS) return false;
      cancelReadAt = now;
      return (await this.store.get(job.jobId))?.cancelRequested === true;
    };
    let cancelled = false;
    const stopped = () => cancelled || this.#stopping;
    if (isCollecting(job)) {
      let renewedAt = this.clock.now();
      const collected = await this.#collect(job, async (found) => {
        if (this.#stopping) return false;
        cancelled = await cancelRequested();
        // Only the lease is renewed while collecting (the total is written with the events).
        if (!cancelled && this.clock.now() - renewedAt >= LEASE_MS / 6) {
          renewedAt = this.clock.now();
          progress({});
        }
        this.logger.debug({ jobId: job.jobId, found }, 'Bulk job collecting its events');
        return !cancelled;
      });
      if ('error' in collected) {
        progress({
          state: 'cancelled',
          finishedAt: this.clock.now(),
          errors: [{ eventId: '', message: `could not read the events it acts on: ${collected.error}` }],
        });
        await writes;
        return this.status(job);
      }
      if (collected.targets !== null) {
        await writes;
        await this.store.addItems(job.jobId, collected.targets);
        job = { ...job, total: collected.targets.length };
        this.#push(job);
      }
    }
    while (!stopped()) {
      await writes;
      const pending = await this.store.items(job.jobId, { offset: 0, limit: CHUNK, outcome: 'pending' });
      if (pending.length === 0) break;
      const queue = [...pending];
      const worker = async () => {
        for (let item = queue.shift(); item !== undefined && !stopped(); item = queue.shift()) {
          if (await cancelRequested()) {
            cancelled = true;
            break;
          }
          try {
            const { messageId } = await run(item);
            settle(item, 'sent', null, messageId);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            settle(
              item,
              error instanceof HttpError && error.status === 409 ? 'refused' : 'failed',
              message,
              null,
            );
          }
          // Between events the WebApp answers its requests (on SQLite nothing else would run until the end), and
          // the job waits while the loop runs late (the endpoint and the Resolver working off what it sent).
          await pacer.pace();
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    }
    if (!cancelled && this.#stopping && (job.processed < job.total || isCollecting(job))) {
      // Released, still running: the next instance claims it at once and goes on with what is left.
      job = { ...job, leaseUntil: 0 };
      const released: BulkJobProgress = job;
      write(() => this.store.save(released));
      await writes;
      return this.status(job);
    }
    progress({ state: cancelled ? 'cancelled' : 'completed', finishedAt: this.clock.now() });
    await writes;
    return this.status(job);
  }

  async #collect(
    job: StoredBulkJob,
    goOn: (found: number) => Promise<boolean>,
  ): Promise<{ targets: Target[] | null } | { error: string }> {
    try {
      return { targets: await (this.collect as BulkTargetCollector)(job, goOn) };
    } catch (error) {
      this.logger.warn({ error, jobId: job.jobId }, 'A bulk job could not read the events it acts on');
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  #push(job: StoredBulkJob): void {
    this.hub.publish({
      type: 'bulkprogress',
      jobId: job.jobId,
      endpointId: job.endpointId,
      endpointIds: job.endpointIds,
      processed: job.processed,
      total: job.total,
      done: job.state !== 'running',
    });
  }
}

/** A running job with no events yet is taking its snapshot (a job with nothing to do completes at once). */
const isCollecting = (job: StoredBulkJob) => job.state === 'running' && job.total === 0;
