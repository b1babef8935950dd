import type { HeldLease } from './held-lease.js';
import { anotherSessionWaits } from './line-head.js';
import type { Row } from './sql/database.js';
import type { SqlCore } from './sql-core.js';

// Receives of several session leases that look at their lines while earlier looks are in flight (a settlement
// group answers many sessions at once, and each asks for its next messages) take their heads in one statement
// when the dialect can (`takeMany`): each lease is checked in that statement. A lease whose line turned out
// empty looks again on its own, which also tells it whether it still holds and what is due.

/** What one look at a leased line found. `nextDue`: 0 = look again now, null = nothing scheduled, else ms. */
export interface TakenHead {
  readonly rows: Row[];
  readonly nextDue: number | null;
  /** Another session of the input has work and no lease. */
  readonly othersWaiting: boolean;
}

/**
 * Takes up to `max` messages at the head of the leased line or, when there are none, inspects it: throws lock
 * lost when the lease is gone, promotes due scheduled copies and tells whether another session waits (the
 * dialect may have inspected in the statement that took; otherwise that takes separate statements here).
 */
export async function takeHead(lease: HeldLease, max: number): Promise<TakenHead> {
  const { core } = lease;
  const { rows, inspection } = await core.dialect.receive.takeHead(core, lease, max);
  if (rows.length > 0) return { rows, nextDue: null, othersWaiting: false };
  if (inspection !== null) {
    if (!inspection.leased) throw lease.lockLost();
    const { untilDue, othersWaiting } = inspection;
    if (untilDue === null) return { rows: [], nextDue: null, othersWaiting };
    return { rows: [], nextDue: untilDue > 0 ? untilDue : await core.promoteDue(lease.input), othersWaiting };
  }
  await lease.assertLease(core.db);
  const nextDue = await core.promoteDue(lease.input);
  let othersWaiting = false;
  if (core.wakeups.acceptsRunning(lease.input) === 0) {
    const waiting = await core.db.all(
      `SELECT 1 AS waiting FROM ${core.t.sessions} ${anotherSessionWaits(core)} LIMIT 1`,
      [lease.input],
      { prepared: true },
    );
    othersWaiting = waiting.length > 0;
  }
  return { rows: [], nextDue, othersWaiting };
}

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
    if (receive.takeMany === undefined || slots === 0) return takeHead(lease, max);
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
      takeHead(waiting.lease, waiting.max).then(waiting.resolve, waiting.reject);
    if (group.length === 1) return alone(group[0]!);
    const taken = new Map<string, Row[]>();
    try {
      const rows = await receive.takeMany!(
        this.core,
        group.map(({ lease, max }) => ({ lease, max })),
      );
      for (const row of rows) {
        const key = leaseKey(String(row.input), String(row.session_id));
        const list = taken.get(key);
        if (list) list.push(row);
        else taken.set(key, [row]);
      }
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
