import {
  type Clock,
  type LifecycleRunner,
  RESOLVER_INPUT,
  replyInputOf,
  type Topology,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import { type Delivery, WorkWaiters } from '@nimbus/core/transport-spi';
import { MemoryDeadLetters } from './dead-letters.js';
import { type LineMessage, newSessionEntry, type SessionEntry } from './entries.js';
import { MemoryOperatorViews } from './operator-views.js';
import { MemorySchedule } from './scheduled.js';

export interface MemoryCoreOptions {
  readonly clock: Clock;
  readonly lockDurationMs: number;
  readonly maxDeliveryCount: number;
  readonly maxBatchBytes: number;
}

/**
 * The state of the in-memory broker and the line operations every part shares (append, remove, dead-letter).
 * The facade and the session handles delegate to the concept modules (topology-apply, publish, session-lease,
 * receive, settle, operator-views), which work on this state.
 */
export class MemoryCore {
  readonly waiters: WorkWaiters;
  readonly schedule = new MemorySchedule();
  readonly deadLetters = new MemoryDeadLetters();
  /** The operator views over this state: peek, counts, dead letters, purge. */
  readonly views: MemoryOperatorViews = new MemoryOperatorViews(this);
  /** Sessions that hold a lease (or held one that lapsed), for the next lock expiry. */
  readonly leased = new Set<SessionEntry>();
  #topology: Topology = { endpoints: [], routes: [] };
  #inputs = new Set<string>([RESOLVER_INPUT]);
  readonly #sessions = new Map<string, Map<string, SessionEntry>>();
  /** Per input, the sessions that have messages, in round-robin order (a leased session moves to the back). */
  readonly #ready = new Map<string, Set<SessionEntry>>();
  #arrival = 0;

  constructor(
    readonly options: MemoryCoreOptions,
    /** The transport's lifecycle: the one place that knows whether it was stopped. */
    readonly lifecycle: Pick<LifecycleRunner, 'assertUsable'>,
  ) {
    this.waiters = new WorkWaiters(options.clock);
  }

  now(): number {
    return this.options.clock.now();
  }

  /** A global, increasing order for line messages and schedules. */
  nextArrival(): number {
    return this.#arrival++;
  }

  /** The stop step: every waiting accept and receive ends with `Closed` (later calls fail through the lifecycle). */
  shutDown(): void {
    this.waiters.close(new TransportError(TransportErrorCode.Closed, 'The memory transport was stopped'));
  }

  // ---- topology (applied by topology-apply.ts) ---------------------------------------------------------

  get topology(): Topology {
    return this.#topology;
  }

  replaceTopology(topology: Topology): void {
    this.#topology = { endpoints: [...topology.endpoints], routes: [...topology.routes] };
    const inputs = new Set<string>([RESOLVER_INPUT]);
    for (const endpoint of topology.endpoints) inputs.add(endpoint).add(replyInputOf(endpoint));
    this.#inputs = inputs;
    this.waiters.notifyAll();
  }

  assertInput(input: string): void {
    if (!this.#inputs.has(input)) {
      throw new TransportError(
        TransportErrorCode.EntityNotFound,
        `Input '${input}' does not exist in the topology`,
      );
    }
  }

  // ---- sessions and their lines ------------------------------------------------------------------------

  session(input: string, sessionId: string): SessionEntry {
    let sessions = this.#sessions.get(input);
    if (!sessions) {
      sessions = new Map();
      this.#sessions.set(input, sessions);
    }
    let entry = sessions.get(sessionId);
    if (!entry) {
      entry = newSessionEntry(input, sessionId);
      sessions.set(sessionId, entry);
    }
    return entry;
  }

  /** The session of `input` named `sessionId`, without creating it. */
  existingSession(input: string, sessionId: string): SessionEntry | undefined {
    return this.#sessions.get(input)?.get(sessionId);
  }

  sessionsAt(input: string): SessionEntry[] {
    return [...(this.#sessions.get(input)?.values() ?? [])];
  }

  /** The sessions of `input` with messages, in round-robin order. */
  readySet(input: string): Set<SessionEntry> {
    let ready = this.#ready.get(input);
    if (!ready) {
      ready = new Set();
      this.#ready.set(input, ready);
    }
    return ready;
  }

  /** Every session of `input` lost its messages (a purge). */
  dropReady(input: string): void {
    this.#ready.delete(input);
  }

  /** Appends routed copies to their session lines now and wakes one waiter per session that got work. */
  enqueue(deliveries: readonly Delivery[]): void {
    const now = this.now();
    const bySession = new Map<string, Set<string>>();
    for (const { input, message } of deliveries) {
      const entry = this.session(input, message.sessionId);
      let sessionIds = bySession.get(input);
      if (!sessionIds) {
        sessionIds = new Set<string>();
        bySession.set(input, sessionIds);
      }
      sessionIds.add(message.sessionId);
      if (entry.line.length === 0) this.readySet(input).add(entry);
      entry.line.push({
        message,
        input,
        sequence: entry.nextSequence++,
        arrival: this.nextArrival(),
        enqueuedAt: now,
        deliveryCount: 0,
        heldBy: null,
        lockToken: '',
      });
    }
    for (const [input, sessionIds] of bySession) this.waiters.notifyWork(input, sessionIds);
  }

  /** Moves scheduled copies whose time has come into their session lines, in due-time order. */
  promoteDue(): void {
    for (const entry of this.schedule.takeDue(this.now())) this.enqueue(entry.deliveries);
  }

  removeFromLine(entry: SessionEntry, item: LineMessage): void {
    const index = entry.line.indexOf(item);
    if (index >= 0) entry.line.splice(index, 1);
    if (entry.line.length === 0) this.#ready.get(entry.input)?.delete(entry);
  }

  /** Drops a session that holds nothing, so accept-next does not scan an ever-growing set of idle sessions. */
  forgetIfEmpty(entry: SessionEntry): void {
    if (entry.line.length > 0 || entry.state !== null || entry.parked.size > 0 || entry.leaseToken !== null)
      return;
    const sessions = this.#sessions.get(entry.input);
    if (sessions?.get(entry.sessionId) === entry) sessions.delete(entry.sessionId);
  }

  addDeadLetter(
    item: Pick<LineMessage, 'message' | 'input' | 'deliveryCount'>,
    reason: string,
    description: string | null,
  ): void {
    this.deadLetters.add(item, reason, description, this.now());
  }

  /** The earliest future time at which something may become available (a schedule or a lock expiry). */
  nextWakeTime(): number {
    const now = this.now();
    let next = this.schedule.earliestDue;
    for (const entry of this.leased) {
      if (entry.leaseToken !== null && entry.lockedUntil > now) next = Math.min(next, entry.lockedUntil);
    }
    return next;
  }
}
