import type { HandlerRun } from './harness/handler-log.js';
import type { ExitRecord } from './harness/managed-process.js';
import type { PlannedEvent } from './workload.js';
import { type AuditedWrite, checkWriteOrder } from './write-order.js';

export interface StoreRow {
  readonly eventId: string;
  readonly sessionId: string;
  readonly status: string;
}

export interface TransportLeftovers {
  readonly input: string;
  readonly active: number;
  readonly scheduled: number;
  readonly parked: number;
  readonly deadLettered: number;
  /** Dead letters other than the permanent failures the workload asks for. */
  readonly otherDeadLetters: number;
}

export interface CheckInput {
  readonly published: readonly PlannedEvent[];
  readonly runs: readonly HandlerRun[];
  readonly rows: readonly StoreRow[];
  readonly leftovers: readonly TransportLeftovers[];
  readonly unexpectedExits: readonly ExitRecord[];
  /**
   * Events an operator resubmitted confirming they run out of order (they had been dead-lettered, their
   * sessions went on), with when it asked. Their runs from then on are counted apart, not as reorders.
   */
  readonly declaredOutOfOrder?: ReadonlyMap<string, number>;
  /** PostgreSQL only: what the server log shows (DDL on the transport schema after migration, deadlocks). */
  readonly databaseProblems?: readonly string[];
  /** The WebApp's answers of 500 or more other than 503 (a database outage answers 503, never 500). */
  readonly internalErrors?: readonly string[];
  /** When the database went down (epoch ms): a settlement in flight then was lost. */
  readonly databaseOutages?: readonly number[];
  /** The suite's kills (SIGKILL) of product processes: a settlement in flight in that process was lost. */
  readonly kills?: readonly ProcessFault[];
  /**
   * The suite's stalls (SIGSTOP past the lease, then SIGCONT), and the refused settlements a process reported
   * itself (its lease lapsed while the machine starved it): that process's settlement in flight was refused.
   */
  readonly stalls?: readonly ProcessFault[];
  /** The write order the suite's triggers recorded while it ran (harness/write-audit.ts). */
  readonly writes?: readonly AuditedWrite[];
}

/** A kill or stall of one process (pid) at `at` (epoch ms). */
export interface ProcessFault {
  readonly pid: number;
  readonly at: number;
}

/** How long after a handler run its settlement may still be in flight (a loaded machine). */
const SETTLEMENT_WINDOW_MS = 5_000;

/** How long after a handler run a kill or stall of its process may still have cost that run's settlement. */
const FAULT_WINDOW_MS = 15_000;

/** How soon the bus must run an event again after it failed with an error a retry policy matches. */
export const RETRY_WITHIN_MS = 12_000;

export interface CheckResult {
  readonly figures: Record<string, number>;
  /** Each violation with enough detail to find it in the logs. */
  readonly violations: Record<
    | 'lost'
    | 'reordered'
    | 'skippedHandled'
    | 'staleRows'
    | 'leftovers'
    | 'died'
    | 'notRetried'
    | 'database'
    | 'overtaken'
    | 'reopened'
    | 'internalErrors',
    string[]
  >;
}

const key = (e: { orderId: string; n: number }) => `${e.orderId}/${e.n}`;

/** Compares the handlers' own log with the publish order and with the store and transport after quiescence. */
export function check(input: CheckInput): CheckResult {
  const { published, runs, rows } = input;
  const violations: CheckResult['violations'] = {
    lost: [],
    reordered: [],
    skippedHandled: [],
    staleRows: [],
    leftovers: [],
    died: [],
    notRetried: [],
    database: [...(input.databaseProblems ?? [])],
    overtaken: [],
    reopened: [],
    internalErrors: [...(input.internalErrors ?? [])],
  };
  const planned = new Map(published.map((e) => [key(e), e]));
  const eventIdOf = new Map<string, string>();
  const keyOfEventId = new Map<string, string>();
  for (const run of runs) {
    if (!eventIdOf.has(key(run))) eventIdOf.set(key(run), run.eventId);
    keyOfEventId.set(run.eventId, key(run));
  }
  // A late duplicate (same message id, published again) is an event of its own, with its own id and row: what
  // is checked against the plan is the event first published, never a duplicate standing in for it.
  const isOriginal = (run: HandlerRun) => eventIdOf.get(key(run)) === run.eventId;
  const statusOfEvent = new Map(rows.map((row) => [row.eventId, row.status]));
  const statusOf = new Map<string, string>();
  for (const [k, eventId] of eventIdOf) {
    const status = statusOfEvent.get(eventId);
    if (status !== undefined) statusOf.set(k, status);
  }
  const handled = new Set(runs.filter((r) => r.outcome === 'handled' && isOriginal(r)).map(key));
  const deadLetteredPermanent = new Set(
    runs.filter((r) => r.mode === 'permanent' && r.outcome === 'failed' && isOriginal(r)).map(key),
  );

  // What each event truly became, from the bus's side (the handler's log), and what the store must say.
  for (const [k, event] of planned) {
    const status = statusOf.get(k);
    if (handled.has(k)) {
      if (status === 'Skipped')
        violations.skippedHandled.push(`${k} ended Skipped but its handler succeeded`);
      else if (status !== 'Completed')
        violations.staleRows.push(`${k} was handled but the store says ${status ?? 'nothing'}`);
    } else if (event.mode === 'permanent' && deadLetteredPermanent.has(k)) {
      // Dead-lettered at once; an operator may leave it so or skip it.
      if (status !== 'DeadLettered' && status !== 'Skipped')
        violations.staleRows.push(`${k} was dead-lettered but the store says ${status ?? 'nothing'}`);
    } else if (status === 'Skipped') {
      // skipped by an operator: accounted
    } else {
      violations.lost.push(
        `${k} (${event.mode}) was published but never handled, skipped or dead-lettered (store: ${status ?? 'nothing'})`,
      );
    }
  }

  // Per-session order: no run of n after a later event of the session succeeded, and no success of n while an
  // earlier event of the session was still unresolved.
  const resolvedBefore = new Map<string, Set<number>>();
  const highestHandled = new Map<string, number>();
  const declared = input.declaredOutOfOrder ?? new Map<string, number>();
  let declaredRuns = 0;
  let rolledBack = 0;
  const runIndexes = new Map<string, number[]>();
  runs.forEach((run, i) => {
    if (eventIdOf.get(key(run)) !== run.eventId) return;
    runIndexes.set(key(run), [...(runIndexes.get(key(run)) ?? []), i]);
  });
  const runsAgainAfter = (k: string, index: number) => (runIndexes.get(k) ?? []).some((i) => i > index);
  const lastSuccess = new Map<string, HandlerRun>();
  // Whether the settlement of the later event's success can have been lost: that very handler's process was
  // killed, or stalled past its lease (its settlement is then refused), while the settlement was in flight, or
  // the database went down right after it. Nothing else excuses a run after a later success: a process whose
  // lease was taken over must run nothing of the session (issue 24).
  const faultAfter = (faults: readonly ProcessFault[], success: HandlerRun) =>
    faults.some((f) => f.pid === success.pid && f.at >= success.at && f.at - success.at <= FAULT_WINDOW_MS);
  const settlementLost = (run: HandlerRun, high: number) => {
    const success = lastSuccess.get(`${run.orderId}/${high}`);
    if (!success) return false;
    if (faultAfter(input.kills ?? [], success) || faultAfter(input.stalls ?? [], success)) return true;
    return (input.databaseOutages ?? []).some(
      (at) => at >= success.at && at - success.at <= SETTLEMENT_WINDOW_MS,
    );
  };
  for (const [index, run] of runs.entries()) {
    if (!planned.has(key(run))) continue;
    const declaredAt = declared.get(run.eventId);
    if (declaredAt !== undefined && run.at >= declaredAt) {
      // The operator confirmed this run comes after later events of its session: not a reorder.
      declaredRuns += 1;
      if (run.outcome === 'handled') {
        const done = resolvedBefore.get(run.orderId) ?? new Set<number>();
        done.add(run.n);
        resolvedBefore.set(run.orderId, done);
      }
      continue;
    }
    // A duplicate publish (same message id, published again later) is a new event at the end of its session:
    // handling it again is at-least-once delivery, not a reorder (the inbox de-duplicates when wanted).
    if (eventIdOf.get(key(run)) !== run.eventId) continue;
    let high = highestHandled.get(run.orderId) ?? 0;
    if (run.n < high && runsAgainAfter(`${run.orderId}/${high}`, index) && settlementLost(run, high)) {
      // The later event runs again after this one: its success was never settled (a settlement rolled back by
      // a crash or a lost connection), and the session is redelivered in order from here. At-least-once.
      rolledBack += 1;
      high = run.n;
      highestHandled.set(run.orderId, high);
    }
    if (run.n < high)
      violations.reordered.push(
        `${key(run)} ran (${run.outcome}, ${run.host}) after ${run.orderId}/${high} succeeded`,
      );
    if (run.outcome === 'handled') {
      lastSuccess.set(key(run), run);
      const done = resolvedBefore.get(run.orderId) ?? new Set<number>();
      for (let k = 1; k < run.n; k++) {
        const earlier = planned.get(`${run.orderId}/${k}`);
        if (!earlier || earlier.mode === 'permanent' || done.has(k)) continue;
        if (statusOf.get(`${run.orderId}/${k}`) === 'Skipped') continue;
        violations.reordered.push(`${key(run)} succeeded before ${run.orderId}/${k} was resolved`);
      }
      done.add(run.n);
      resolvedBefore.set(run.orderId, done);
      highestHandled.set(run.orderId, Math.max(high, run.n));
    } else if (run.mode === 'permanent') {
      const done = resolvedBefore.get(run.orderId) ?? new Set<number>();
      done.add(run.n);
      resolvedBefore.set(run.orderId, done);
    }
  }

  // A failure a retry policy matches is retried by the bus, after a resubmission too (issue 12.4); the chaos
  // operator leaves such an event alone meanwhile, so only the bus can run it again this soon.
  runs.forEach((run, i) => {
    if (!run.retryable || run.outcome !== 'failed') return;
    // Skipped by an operator meanwhile (a skip racing the resubmit): the bus rightly drops the retry.
    if (statusOfEvent.get(run.eventId) === 'Skipped') return;
    const next = runs.slice(i + 1).find((r) => r.eventId === run.eventId);
    if (!next || next.at - run.at > RETRY_WITHIN_MS) {
      const when = next
        ? `only ${Math.round((next.at - run.at) / 1000)} s later (${next.messageType})`
        : 'never';
      violations.notRetried.push(
        `${key(run)} failed with a retryable error (run ${run.run}, ${run.messageType}) and ran again ${when}`,
      );
    }
  });

  for (const left of input.leftovers) {
    if (left.active + left.scheduled + left.parked + left.otherDeadLetters > 0) {
      violations.leftovers.push(
        `${left.input}: ${left.active} active, ${left.scheduled} scheduled, ${left.parked} parked, ${left.otherDeadLetters} dead letters that are not permanent failures (${left.deadLettered} in all)`,
      );
    }
  }
  for (const exit of input.unexpectedExits) {
    violations.died.push(
      `${exit.name} (pid ${exit.pid}) exited by itself: code ${exit.code}, signal ${exit.signal}`,
    );
  }

  const writeOrder = checkWriteOrder(input.writes ?? [], (eventId) => keyOfEventId.get(eventId) ?? eventId);
  violations.overtaken.push(...writeOrder.overtaken);
  // An audit that saw nothing (its triggers on the wrong tables) would let the write-order checks pass unseen.
  if (input.writes && handled.size > 0 && writeOrder.historyWrites === 0)
    violations.overtaken.push(
      'the write audit recorded no history write: the write order could not be checked',
    );
  violations.reopened.push(...writeOrder.reopened);

  const modes = (mode: string) => [...planned.values()].filter((e) => e.mode === mode).length;
  return {
    figures: {
      published: planned.size,
      transientEvents: modes('transient'),
      blockingEvents: modes('block'),
      permanentEvents: modes('permanent'),
      handlerRuns: runs.length,
      handled: handled.size,
      skippedByOperator: [...statusOf.values()].filter((s) => s === 'Skipped').length,
      duplicatesHandledAgain: new Set(
        runs
          .filter((r) => r.outcome === 'handled' && eventIdOf.get(key(r)) !== r.eventId)
          .map((r) => r.eventId),
      ).size,
      duplicateSuccesses: runs.filter((r) => r.outcome === 'handled').length - handled.size,
      duplicateRuns: duplicateRuns(runs),
      storeRows: rows.length,
      retryableFailures: runs.filter((r) => r.retryable && r.outcome === 'failed').length,
      redeliveredInOrder: rolledBack,
      declaredOutOfOrderEvents: declared.size,
      declaredOutOfOrderRuns: declaredRuns,
      historyWritesAudited: writeOrder.historyWrites,
      historyWritesUnmatched: writeOrder.historyUnmatched,
      statusWritesAudited: writeOrder.statusWrites,
    },
    violations,
  };
}

/** Handler runs of an event that had already succeeded before (at-least-once: redeliveries, lost settlements). */
export function duplicateRuns(runs: readonly HandlerRun[]): number {
  const succeeded = new Set<string>();
  let duplicates = 0;
  for (const run of runs) {
    if (succeeded.has(run.eventId)) duplicates += 1;
    if (run.outcome === 'handled') succeeded.add(run.eventId);
  }
  return duplicates;
}
