import type {
  DeadLetteredMessage,
  Delivery,
  PeekedMessage,
  PurgeTarget,
  TransportCounts,
} from '@nimbus/core';
import type { MemoryDeadLetters } from './memory-dead-letters.js';
import type { LineMessage, ScheduledEntry, SessionEntry } from './memory-state.js';

/** What the operator views need of the broker's state. */
export interface MemoryViewState {
  assertInput(input: string): void;
  promoteDue(): void;
  sessionsAt(input: string): SessionEntry[];
  readonly scheduled: Map<string, ScheduledEntry>;
  readonly deadLetters: MemoryDeadLetters;
  enqueue(deliveries: readonly Delivery[]): void;
  dropReady(input: string): void;
  /** The scheduled entries changed: the earliest due time must be recomputed. */
  scheduleChanged(): void;
}

/** Peek, counts, dead letters and purge: what operators see of the in-memory broker and may change. */
export class MemoryOperatorViews {
  readonly #state: MemoryViewState;

  constructor(state: MemoryViewState) {
    this.#state = state;
  }

  #lineItems(input: string, sessionId?: string): LineMessage[] {
    const sessions = this.#state.sessionsAt(input);
    return sessions
      .filter((s) => sessionId === undefined || s.sessionId === sessionId)
      .flatMap((s) => s.line)
      .sort((a, b) => a.arrival - b.arrival);
  }

  peek(input: string, max: number, sessionId?: string): PeekedMessage[] {
    this.#state.assertInput(input);
    this.#state.promoteDue();
    return this.#lineItems(input, sessionId)
      .slice(0, max)
      .map((item) => ({
        ...item.message,
        input: item.input,
        sequence: item.sequence,
        deliveryCount: item.deliveryCount,
        enqueuedAt: new Date(item.enqueuedAt),
        visibleAt: new Date(item.enqueuedAt),
      }));
  }

  counts(input: string): TransportCounts {
    this.#state.assertInput(input);
    this.#state.promoteDue();
    const sessions = this.#state.sessionsAt(input);
    return {
      active: sessions.reduce((n, s) => n + s.line.length, 0),
      scheduled: this.#scheduledFor(input).reduce(
        (n, e) => n + e.deliveries.filter((d) => d.input === input).length,
        0,
      ),
      deadLettered: this.#state.deadLetters.count(input),
      parked: sessions.reduce((n, s) => n + s.parked.size, 0),
    };
  }

  #scheduledFor(input: string): ScheduledEntry[] {
    return [...this.#state.scheduled.values()].filter((e) => e.deliveries.some((d) => d.input === input));
  }

  peekDeadLetters(input: string, max: number): DeadLetteredMessage[] {
    this.#state.assertInput(input);
    return this.#state.deadLetters.list(input, max);
  }

  requeueDeadLetters(input: string, ids?: readonly string[]): number {
    this.#state.assertInput(input);
    const moving = this.#state.deadLetters.take(input, ids);
    this.#state.enqueue(moving.map((message) => ({ input, message })));
    return moving.length;
  }

  purge(input: string, target: PurgeTarget): number {
    this.#state.assertInput(input);
    this.#state.promoteDue();
    let removed = 0;
    const sessions = this.#state.sessionsAt(input);
    if (target === 'active' || target === 'all') {
      for (const s of sessions) removed += s.line.splice(0).length;
      this.#state.dropReady(input);
    }
    if (target === 'parked' || target === 'all') {
      for (const s of sessions) {
        removed += s.parked.size;
        s.parked.clear();
      }
    }
    if (target === 'deadLettered' || target === 'all') {
      removed += this.#state.deadLetters.clear(input);
    }
    if (target === 'scheduled' || target === 'all') {
      for (const entry of this.#scheduledFor(input)) {
        const kept = entry.deliveries.filter((d) => d.input !== input);
        removed += entry.deliveries.length - kept.length;
        if (kept.length === 0) this.#state.scheduled.delete(entry.id);
        else this.#state.scheduled.set(entry.id, { ...entry, deliveries: kept });
      }
      this.#state.scheduleChanged();
    }
    return removed;
  }
}
