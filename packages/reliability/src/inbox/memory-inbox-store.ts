import { type Clock, systemClock } from '@nimbus/core';
import { INBOX_PURGE_BATCH, type InboxStore, inboxIdentity } from './inbox-store.js';

interface Row {
  readonly endpointId: string;
  readonly recordedAt: number;
}

/** A process-local inbox; records vanish with the process. For tests and single-process development. */
export class MemoryInboxStore implements InboxStore {
  readonly provider = 'memory';
  readonly #rows = new Map<string, Row>();
  readonly #clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  async hasProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<boolean> {
    signal?.throwIfAborted();
    return this.#rows.has(inboxIdentity(endpointId, messageId));
  }

  async recordProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const key = inboxIdentity(endpointId, messageId);
    if (!this.#rows.has(key)) this.#rows.set(key, { endpointId, recordedAt: this.#clock.now() });
  }

  async purgeExpired(endpointId: string, cutoff: Date, signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    let removed = 0;
    for (const [key, row] of this.#rows) {
      if (removed >= INBOX_PURGE_BATCH) break;
      if (row.endpointId === endpointId && row.recordedAt < cutoff.getTime()) {
        this.#rows.delete(key);
        removed += 1;
      }
    }
    return removed;
  }
}
