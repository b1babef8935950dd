import { isRetryableError } from '@nimbus/core';
import type { TrackingBatch, TrackingBatchResult } from '@nimbus/message-store';

interface Waiting {
  readonly batch: TrackingBatch;
  /** The writing session's lease fence, checked again right before the write (it may wait behind others). */
  readonly fence: () => void;
  resolve(result: TrackingBatchResult): void;
  reject(error: unknown): void;
}

/** A merged write stays below this many history records (a few multi-row statements on SQL). */
const MAX_MESSAGES_PER_COMMIT = 512;

/**
 * Group commit for the Resolver's batch writes. Each held session writes its own receive batch; with many
 * sessions those batches are small (one or two messages per session turn), so a transaction per batch spends
 * most of the store's time on commits and statement overhead. While one write is in flight, the batches that
 * arrive meanwhile wait and are then written together as one `writeBatch` (one transaction on SQL). An idle
 * Resolver writes at once, so nothing waits longer than the write in front of it.
 *
 * Merging keeps every guarantee of a single batch: a session has at most one batch in flight (it settles
 * before it receives again) and status keys include the session, so no two merged batches share a key; the
 * stale-write guard is applied per row; each caller gets the results of its own rows. When a merged write
 * fails for a reason that is not retryable, each batch is written again on its own, so one batch the store
 * refuses does not fail the others; a retryable failure (the store is down) is handed to every caller, whose
 * retry loop backs off and writes again.
 */
export class GroupCommit {
  #waiting: Waiting[] = [];
  #writing = false;

  constructor(private readonly writeBatch: (batch: TrackingBatch) => Promise<TrackingBatchResult>) {}

  write(batch: TrackingBatch, fence: () => void = () => undefined): Promise<TrackingBatchResult> {
    return new Promise<TrackingBatchResult>((resolve, reject) => {
      this.#waiting.push({ batch, fence, resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#waiting.length > 0) await this.#writeGroup(this.#takeGroup());
    } finally {
      this.#writing = false;
    }
  }

  #takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    let messages = 0;
    while (this.#waiting.length > 0) {
      const next = this.#waiting[0]!;
      const size = next.batch.messages?.length ?? 0;
      if (group.length > 0 && messages + size > MAX_MESSAGES_PER_COMMIT) break;
      group.push(this.#waiting.shift()!);
      messages += size;
    }
    return group;
  }

  async #writeGroup(waited: readonly Waiting[]): Promise<void> {
    const group = waited.filter(stillFenced);
    if (group.length === 0) return;
    if (group.length === 1) return this.#writeAlone(group[0]!);
    let result: TrackingBatchResult;
    try {
      result = await this.writeBatch(mergeBatches(group.map((w) => w.batch)));
    } catch (error) {
      if (isRetryableError(error)) {
        for (const waiting of group) waiting.reject(error);
        return;
      }
      for (const waiting of group) await this.#writeAlone(waiting);
      return;
    }
    let messageAt = 0;
    let statusAt = 0;
    for (const { batch, resolve } of group) {
      const messages = batch.messages?.length ?? 0;
      const statuses = batch.statuses?.length ?? 0;
      resolve({
        messagesStored: result.messagesStored.slice(messageAt, messageAt + messages),
        statusesWritten: result.statusesWritten.slice(statusAt, statusAt + statuses),
      });
      messageAt += messages;
      statusAt += statuses;
    }
  }

  async #writeAlone({ batch, resolve, reject }: Waiting): Promise<void> {
    try {
      resolve(await this.writeBatch(batch));
    } catch (error) {
      reject(error);
    }
  }
}

/**
 * A batch that waited behind other writes may belong to a session whose lease lapsed meanwhile (the process was
 * starved or paused): its write would land after the new holder's, so it is refused here, unwritten.
 */
function stillFenced(waiting: Waiting): boolean {
  try {
    waiting.fence();
    return true;
  } catch (error) {
    waiting.reject(error);
    return false;
  }
}

function mergeBatches(batches: readonly TrackingBatch[]): TrackingBatch {
  return {
    messages: batches.flatMap((b) => b.messages ?? []),
    statuses: batches.flatMap((b) => b.statuses ?? []),
  };
}
