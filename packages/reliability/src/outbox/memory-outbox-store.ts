import { type Clock, systemClock } from '@nimbus/core';
import { outboxMessageOf } from './outbox-row.js';
import {
  type OutboxEntry,
  type OutboxMessage,
  type OutboxStore,
  positiveLimit,
  validateEntry,
} from './outbox-store.js';

/** A process-local outbox, for tests and development; it cannot share a transaction with business data. */
export class MemoryOutboxStore implements OutboxStore {
  readonly provider = 'memory';
  #rows: OutboxMessage[] = [];
  readonly #clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  async store(entry: OutboxEntry): Promise<OutboxMessage> {
    const [row] = await this.storeBatch([entry]);
    return row!;
  }

  async storeBatch(entries: readonly OutboxEntry[]): Promise<OutboxMessage[]> {
    entries.forEach(validateEntry);
    const rows = entries.map((entry) => outboxMessageOf(entry, this.#clock.now()));
    this.#rows.push(...rows);
    return rows;
  }

  async getPending(limit: number): Promise<OutboxMessage[]> {
    positiveLimit(limit, 'getPending limit');
    return this.#rows.filter((r) => r.dispatchedAt === null).slice(0, limit);
  }

  async markAsDispatched(ids: readonly string[]): Promise<number> {
    const wanted = new Set(ids);
    const now = new Date(this.#clock.now());
    let marked = 0;
    this.#rows = this.#rows.map((row) => {
      if (!wanted.has(row.id) || row.dispatchedAt !== null) return row;
      marked += 1;
      return { ...row, dispatchedAt: now };
    });
    return marked;
  }

  async purgeDispatched(olderThan: Date): Promise<number> {
    const before = this.#rows.length;
    this.#rows = this.#rows.filter((r) => r.dispatchedAt === null || r.dispatchedAt >= olderThan);
    return before - this.#rows.length;
  }

  async pendingStats() {
    const pending = this.#rows.filter((r) => r.dispatchedAt === null);
    return { count: pending.length, oldestCreatedAt: pending[0]?.createdAt ?? null };
  }

  async find(id: string): Promise<OutboxMessage | null> {
    return this.#rows.find((r) => r.id === id) ?? null;
  }
}
