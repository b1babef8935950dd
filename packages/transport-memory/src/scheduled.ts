import { TransportError, TransportErrorCode } from '@nimbus/core';
import type { Delivery } from '@nimbus/core/transport-spi';
import type { ScheduledEntry } from './entries.js';

/** Scheduled copies waiting for their due time, with the earliest due time kept at hand for the hot paths. */
export class MemorySchedule {
  readonly #entries = new Map<string, ScheduledEntry>();
  #earliestDue = Number.POSITIVE_INFINITY;

  /** The earliest due time of anything scheduled (infinity when nothing is). */
  get earliestDue(): number {
    return this.#earliestDue;
  }

  add(entry: ScheduledEntry): void {
    this.#entries.set(entry.id, entry);
    this.#earliestDue = Math.min(this.#earliestDue, entry.dueAt);
  }

  cancel(id: string, source: string): void {
    const entry = this.#entries.get(id);
    if (!entry || entry.source !== source) {
      throw new TransportError(
        TransportErrorCode.MessageNotFound,
        `No scheduled message with handle '${id}' on '${source}' (unknown, cancelled or already enqueued)`,
      );
    }
    this.#entries.delete(id);
    this.#recomputeEarliestDue();
  }

  /** Removes and returns the entries due at `now`, in due-time order (then scheduling order). */
  takeDue(now: number): ScheduledEntry[] {
    if (now < this.#earliestDue) return [];
    const due = [...this.#entries.values()]
      .filter((entry) => entry.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt || a.order - b.order);
    for (const entry of due) this.#entries.delete(entry.id);
    this.#recomputeEarliestDue();
    return due;
  }

  /** The entries holding at least one copy for `input`. */
  forInput(input: string): ScheduledEntry[] {
    return [...this.#entries.values()].filter((e) => e.deliveries.some((d) => d.input === input));
  }

  /** The number of scheduled copies for `input`. */
  countFor(input: string): number {
    return this.forInput(input).reduce((n, e) => n + e.deliveries.filter((d) => d.input === input).length, 0);
  }

  /** Removes every scheduled copy for `input` (entries keep their copies for other inputs); returns how many. */
  purge(input: string): number {
    let removed = 0;
    for (const entry of this.forInput(input)) {
      const kept: Delivery[] = entry.deliveries.filter((d) => d.input !== input);
      removed += entry.deliveries.length - kept.length;
      if (kept.length === 0) this.#entries.delete(entry.id);
      else this.#entries.set(entry.id, { ...entry, deliveries: kept });
    }
    this.#recomputeEarliestDue();
    return removed;
  }

  #recomputeEarliestDue(): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of this.#entries.values()) earliest = Math.min(earliest, entry.dueAt);
    this.#earliestDue = earliest;
  }
}
