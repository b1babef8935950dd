import type { TakenHead } from './dialect/dialect.js';
import type { HeldLease } from './held-lease.js';
import type { Row } from './sql/database.js';
import type { SqlCore } from './sql-core.js';

// Receives of several session leases that look at their lines while earlier looks are in flight (a settlement
// group answers many sessions at once, and each asks for its next messages) take their heads in one statement
// when the dialect can (`takeMany`): each lease is checked in that statement. A lease whose line turned out
// empty looks again on its own, which also tells it whether it still holds and what is due.

interface Waiting {
  readonly lease: HeldLease;
  readonly max: number;
  readonly resolve: (taken: TakenHead) => void;
  readonly reject: (error: unknown) => void;
}

export class TakeGroup {
  #queue: Waiting[] = [];
  #running = 0;

  constructor(private readonly core: SqlCore) {}

  take(lease: HeldLease, max: number): Promise<TakenHead> {
    const { receive } = this.core.dialect;
    const slots = this.core.options.settleGroupConcurrency;
    if (receive.takeMany === undefined || slots === 0) return receive.takeHead(lease, max);
    return new Promise<TakenHead>((resolve, reject) => {
      this.#queue.push({ lease, max, resolve, reject });
      this.#pump(slots);
    });
  }

  // As the settlement groups: a take that finds a free slot runs at once; those that arrive meanwhile go together.
  #pump(slots: number): void {
    while (this.#running < slots && this.#queue.length > 0) {
      this.#running += 1;
      const group = this.#queue;
      this.#queue = [];
      void this.#run(group).finally(() => {
        this.#running -= 1;
        this.#pump(slots);
      });
    }
  }

  async #run(group: readonly Waiting[]): Promise<void> {
    const { receive } = this.core.dialect;
    const alone = (waiting: Waiting) =>
      receive.takeHead(waiting.lease, waiting.max).then(waiting.resolve, waiting.reject);
    if (group.length === 1) return alone(group[0]!);
    let taken: Map<string, Row[]>;
    try {
      taken = await receive.takeMany!(
        this.core,
        group.map(({ lease, max }) => ({ lease, max })),
      );
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    this.core.settleGroup.stats.receiveGroups += 1;
    for (const waiting of group) {
      const rows = taken.get(leaseKey(waiting.lease.input, waiting.lease.sessionId));
      if (rows && rows.length > 0) waiting.resolve({ rows, nextDue: null, othersWaiting: false });
      else void alone(waiting);
    }
  }
}

export function leaseKey(input: string, sessionId: string): string {
  return `${input}\u0000${sessionId}`;
}
