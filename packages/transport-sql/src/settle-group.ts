import type { HeldLease } from './held-lease.js';
import { sessionKey } from './line-writer.js';
import type { SqlExecutor } from './sql/database.js';
import type { SqlCore } from './sql-core.js';
import type { PlannedSettlement } from './sql-settle-rows.js';

// Group commit across sessions: the completions of several session leases, settled in one transaction. One
// statement removes every message, checking each one's lease (token, unexpired) in that statement (the fence);
// one append writes all the published copies; the co-located projection writes all the history and status rows;
// one commit. Settlements a session hands in are awaited by it before the next, so per-session order holds;
// sessions are served in arrival order (fairness). A group in which any message was refused is rolled back and
// each of its settlements takes the one-lease path instead, which refuses exactly the stale ones with their error.

interface Entry {
  readonly lease: HeldLease;
  readonly planned: readonly PlannedSettlement[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The group was rolled back: some message was no longer held by its lease. */
class RefusedInGroup extends Error {}

/** Counters of the group path (read by tests and the bench). */
export interface SettleGroupStats {
  groups: number;
  settlements: number;
  /** Groups rolled back because a message was refused (lease lost, message gone), then settled one by one. */
  refusedGroups: number;
  /** Receives of several leases that took their heads in one statement (take-group.ts; PostgreSQL). */
  receiveGroups: number;
}

export class SettleGroup {
  readonly stats: SettleGroupStats = { groups: 0, settlements: 0, refusedGroups: 0, receiveGroups: 0 };
  readonly #queue: Entry[] = [];
  #running = 0;

  constructor(
    private readonly core: SqlCore,
    /** Group transactions in flight at once; 0 turns grouping off. */
    private readonly concurrency: number,
    /** Most messages one group settles. */
    private readonly maxMessages: number,
    /** The one-lease path, for settlements a group does not take and for a refused group's settlements. */
    private readonly alone: (lease: HeldLease, planned: readonly PlannedSettlement[]) => Promise<void>,
  ) {}

  /** Settles `planned` (all of one lease, in order) in a group when it qualifies, else on the one-lease path. */
  settle(lease: HeldLease, planned: readonly PlannedSettlement[]): Promise<void> {
    if (this.concurrency === 0 || !qualifies(lease, planned)) return this.alone(lease, planned);
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ lease, planned, resolve, reject });
      this.#pump();
    });
  }

  // Group commit without a timer: a settlement that finds a free slot starts at once; those handed in while the
  // slots are busy wait and form the next group (a timer would only add latency, and a caller looping on
  // microtasks could starve it).
  #pump(): void {
    while (this.#running < this.concurrency && this.#queue.length > 0) {
      this.#running += 1;
      void this.#runGroup(this.#take()).finally(() => {
        this.#running -= 1;
        this.#pump();
      });
    }
  }

  #take(): Entry[] {
    const group: Entry[] = [];
    let messages = 0;
    while (this.#queue.length > 0) {
      const next = this.#queue[0]!;
      if (group.length > 0 && messages + next.planned.length > this.maxMessages) break;
      group.push(this.#queue.shift()!);
      messages += next.planned.length;
    }
    return group;
  }

  async #runGroup(group: Entry[]): Promise<void> {
    if (group.length === 0) return;
    if (group.length === 1) {
      const [entry] = group;
      await this.alone(entry!.lease, entry!.planned).then(entry!.resolve, entry!.reject);
      return;
    }
    const { core } = this;
    try {
      const woken = await core.db.transaction(async (tx) => {
        await removeAll(core, tx, group);
        return core.writePlans(
          tx,
          group.flatMap((entry) => entry.planned.flatMap((item) => item.plans)),
        );
      });
      this.stats.groups += 1;
      this.stats.settlements += group.length;
      core.wakeLocal(woken);
      for (const entry of group) entry.resolve();
    } catch (error) {
      if (!(error instanceof RefusedInGroup)) {
        for (const entry of group) entry.reject(error);
        return;
      }
      this.stats.refusedGroups += 1;
      core.logger.warn(
        { settlements: group.length },
        'SQL transport: a grouped settlement was refused (a lease was lost or a message is gone); settling each alone',
      );
      for (const entry of group)
        await this.alone(entry.lease, entry.planned).then(entry.resolve, entry.reject);
    }
  }
}

/**
 * Plain completions only: no dead letter, no parked effects, no state change, no scheduled copy and nothing
 * appended to the settling session's own line (those need the session row under the lease; see settleRows).
 */
function qualifies(lease: HeldLease, planned: readonly PlannedSettlement[]): boolean {
  const own = sessionKey(lease.input, lease.sessionId);
  return planned.every(
    ({ deadLetter, effects, plans }) =>
      deadLetter === null &&
      effects?.state === undefined &&
      (effects?.park?.length ?? 0) +
        (effects?.unpark?.length ?? 0) +
        (effects?.deadLetterParked?.length ?? 0) ===
        0 &&
      plans.every(
        (plan) =>
          plan.dueAt === null &&
          plan.deliveries.every((d) => sessionKey(d.input, d.message.sessionId) !== own),
      ),
  );
}

const ROW = '(CAST(? AS text), CAST(? AS text), CAST(? AS bigint), CAST(? AS text), CAST(? AS integer))';

/** One statement removes every message of the group whose lease still holds; anything less rolls the group back. */
async function removeAll(core: SqlCore, tx: SqlExecutor, group: readonly Entry[]): Promise<void> {
  const { t, now, texts } = core;
  const params: unknown[] = [];
  for (const { lease, planned } of group) {
    for (const { message } of planned)
      params.push(lease.input, lease.sessionId, message.sequence, lease.token, message.deliveryCount);
  }
  const count = params.length / 5;
  const sql = texts.get(
    'removeGroup',
    count,
    (n) => `DELETE FROM ${t.messages} AS m
       WHERE (m.input, m.session_id, m.seq, m.held_by, m.delivery_count) IN (VALUES ${Array.from({ length: n }, () => ROW).join(', ')})
         AND EXISTS (SELECT 1 FROM ${t.sessions} AS s WHERE s.input = m.input AND s.session_id = m.session_id
           AND s.lock_token = m.held_by AND s.locked_until > ${now})`,
  );
  const removed = await tx.run(sql, params);
  if (removed !== count) throw new RefusedInGroup();
}
