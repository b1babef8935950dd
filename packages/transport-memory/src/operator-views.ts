import type { DeadLetteredMessage, PeekedMessage, PurgeTarget, TransportCounts } from '@nimbus/core';
import type { LineMessage } from './entries.js';
import type { MemoryCore } from './memory-core.js';

/** Peek, counts, dead letters and purge: what operators see of the in-memory broker and may change. */
export class MemoryOperatorViews {
  readonly #core: MemoryCore;

  constructor(core: MemoryCore) {
    this.#core = core;
  }

  #lineItems(input: string, sessionId?: string): LineMessage[] {
    const sessions = this.#core.sessionsAt(input);
    return sessions
      .filter((s) => sessionId === undefined || s.sessionId === sessionId)
      .flatMap((s) => s.line)
      .sort((a, b) => a.arrival - b.arrival);
  }

  peek(input: string, max: number, sessionId?: string): PeekedMessage[] {
    this.#core.assertInput(input);
    this.#core.promoteDue();
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
    this.#core.assertInput(input);
    this.#core.promoteDue();
    const sessions = this.#core.sessionsAt(input);
    return {
      active: sessions.reduce((n, s) => n + s.line.length, 0),
      scheduled: this.#core.schedule.countFor(input),
      deadLettered: this.#core.deadLetters.count(input),
      parked: sessions.reduce((n, s) => n + s.parked.size, 0),
    };
  }

  peekDeadLetters(input: string, max: number): DeadLetteredMessage[] {
    this.#core.assertInput(input);
    return this.#core.deadLetters.list(input, max);
  }

  requeueDeadLetters(input: string, ids?: readonly string[]): number {
    this.#core.assertInput(input);
    const moving = this.#core.deadLetters.take(input, ids);
    this.#core.enqueue(moving.map((message) => ({ input, message })));
    return moving.length;
  }

  purge(input: string, target: PurgeTarget): number {
    this.#core.assertInput(input);
    this.#core.promoteDue();
    let removed = 0;
    const sessions = this.#core.sessionsAt(input);
    if (target === 'active' || target === 'all') {
      for (const s of sessions) removed += s.line.splice(0).length;
      this.#core.dropReady(input);
    }
    if (target === 'parked' || target === 'all') {
      for (const s of sessions) {
        removed += s.parked.size;
        s.parked.clear();
      }
    }
    if (target === 'deadLettered' || target === 'all') {
      removed += this.#core.deadLetters.clear(input);
    }
    if (target === 'scheduled' || target === 'all') {
      removed += this.#core.schedule.purge(input);
    }
    return removed;
  }
}
