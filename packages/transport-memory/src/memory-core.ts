import {
  assertDeadLetterReason,
  assertPublishBatchSize,
  assertPublishSource,
  assertSessionState,
  assertSettledOnce,
  assertSettleEffects,
  assertTransportMessage,
  type BatchSettlement,
  type Clock,
  type Delivery,
  diffTopology,
  holdsMessages,
  MAX_DELIVERY_COUNT_REASON,
  maxDeliveryDescription,
  type PublishRequest,
  parkedMessageNotFound,
  RESOLVER_INPUT,
  type ReceivedMessage,
  replyInputOf,
  routeMessage,
  type SessionState,
  type SettleEffects,
  type Topology,
  type TopologyChanges,
  TransportError,
  TransportErrorCode,
  type TransportMessage,
  uuidv7,
  WorkWaiters,
} from '@nimbus/core';
import { MemoryDeadLetters } from './memory-dead-letters.js';
import { MemoryOperatorViews } from './memory-operator-views.js';
import {
  isLeaseFree,
  type LineMessage,
  newSessionEntry,
  type ScheduledEntry,
  type SessionEntry,
} from './memory-state.js';

export interface MemoryCoreOptions {
  readonly clock: Clock;
  readonly lockDurationMs: number;
  readonly maxDeliveryCount: number;
  readonly maxBatchBytes: number;
}

/** The state and rules of the in-memory broker; the public facade and session handles delegate here. */
export class MemoryCore {
  readonly waiters: WorkWaiters;
  #topology: Topology = { endpoints: [], routes: [] };
  #inputs = new Set<string>([RESOLVER_INPUT]);
  readonly #sessions = new Map<string, Map<string, SessionEntry>>();
  readonly #scheduled = new Map<string, ScheduledEntry>();
  /** Per input, the sessions that have messages, in round-robin order (a leased session moves to the back). */
  readonly #ready = new Map<string, Set<SessionEntry>>();
  readonly #leased = new Set<SessionEntry>();
  #earliestDue = Number.POSITIVE_INFINITY;
  readonly #deadLetters = new MemoryDeadLetters();
  #arrival = 0;
  #closed = false;

  constructor(readonly options: MemoryCoreOptions) {
    this.waiters = new WorkWaiters(options.clock);
  }

  now(): number {
    return this.options.clock.now();
  }

  // ---- lifecycle and topology -------------------------------------------------------------------------

  assertOpen(): void {
    if (this.#closed) throw new TransportError(TransportErrorCode.Closed, 'The memory transport is closed');
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.waiters.close(new TransportError(TransportErrorCode.Closed, 'The memory transport was closed'));
  }

  applyTopology(topology: Topology): TopologyChanges {
    this.assertOpen();
    const diff = diffTopology(this.#topology, topology);
    const retainedInputs = diff.removedEndpoints
      .flatMap((endpoint) => [endpoint, replyInputOf(endpoint)])
      .map((input) => ({ input, counts: this.views.counts(input) }))
      .filter((retained) => holdsMessages(retained.counts));
    const changes = retainedInputs.length > 0 ? { ...diff, retainedInputs } : diff;
    this.#topology = { endpoints: [...topology.endpoints], routes: [...topology.routes] };
    const inputs = new Set<string>([RESOLVER_INPUT]);
    for (const endpoint of topology.endpoints) inputs.add(endpoint).add(replyInputOf(endpoint));
    this.#inputs = inputs;
    this.waiters.notifyAll();
    return changes;
  }

  getTopology(): Topology {
    return this.#topology;
  }

  assertInput(input: string): void {
    if (!this.#inputs.has(input)) {
      throw new TransportError(
        TransportErrorCode.EntityNotFound,
        `Input '${input}' does not exist in the topology`,
      );
    }
  }

  // ---- publishing and scheduling ----------------------------------------------------------------------

  /** Routes and validates without changing anything, so callers can apply atomically afterwards. */
  planPublish(requests: readonly PublishRequest[]): { deliveries: Delivery[]; dueAt: number | null }[] {
    return requests.map((request) => {
      assertPublishSource(request.source);
      const deliveries = request.messages.flatMap((message) => {
        assertTransportMessage(message);
        return routeMessage(this.#topology, request.source, message);
      });
      for (const delivery of deliveries) this.assertInput(delivery.input);
      const dueAt = request.enqueueAt ? request.enqueueAt.getTime() : null;
      return { deliveries, dueAt: dueAt !== null && dueAt > this.now() ? dueAt : null };
    });
  }

  applyPublish(plan: { deliveries: Delivery[]; dueAt: number | null }[]): void {
    for (const { deliveries, dueAt } of plan) {
      if (dueAt === null) this.#enqueue(deliveries);
      else this.#addScheduled(uuidv7(this.now()), '', dueAt, deliveries);
    }
  }

  assertBatchSize(requests: readonly PublishRequest[]): void {
    assertPublishBatchSize(requests, this.options.maxBatchBytes);
  }

  schedule(source: string, message: TransportMessage, at: Date): string {
    const [planned] = this.planPublish([{ source, messages: [message] }]);
    const id = uuidv7(this.now());
    this.#addScheduled(id, source, at.getTime(), planned!.deliveries);
    this.promoteDue();
    this.waiters.notifyAll();
    return id;
  }

  cancelScheduled(id: string, source: string): void {
    this.promoteDue();
    const entry = this.#scheduled.get(id);
    if (!entry || entry.source !== source) {
      throw new TransportError(
        TransportErrorCode.MessageNotFound,
        `No scheduled message with handle '${id}' on '${source}' (unknown, cancelled or already enqueued)`,
      );
    }
    this.#scheduled.delete(id);
    this.#recomputeEarliestDue();
  }

  #recomputeEarliestDue(): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of this.#scheduled.values()) earliest = Math.min(earliest, entry.dueAt);
    this.#earliestDue = earliest;
  }

  #addScheduled(id: string, source: string, dueAt: number, deliveries: readonly Delivery[]): void {
    this.#scheduled.set(id, { id, source, dueAt, order: this.#arrival++, deliveries });
    this.#earliestDue = Math.min(this.#earliestDue, dueAt);
  }

  /** Moves scheduled copies whose time has come into their session lines, in due-time order. */
  promoteDue(): void {
    const now = this.now();
    if (now < this.#earliestDue) return;
    const due = [...this.#scheduled.values()]
      .filter((entry) => entry.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt || a.order - b.order);
    for (const entry of due) {
      this.#scheduled.delete(entry.id);
      this.#enqueue(entry.deliveries);
    }
    this.#recomputeEarliestDue();
  }

  #enqueue(deliveries: readonly Delivery[]): void {
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
      if (entry.line.length === 0) this.#readySet(input).add(entry);
      entry.line.push({
        message,
        input,
        sequence: entry.nextSequence++,
        arrival: this.#arrival++,
        enqueuedAt: now,
        deliveryCount: 0,
        heldBy: null,
        lockToken: '',
      });
    }
    for (const [input, sessionIds] of bySession) this.waiters.notifyWork(input, sessionIds);
  }

  /** The earliest future time at which something may become available (a schedule or a lock expiry). */
  nextWakeTime(): number {
    const now = this.now();
    let next = this.#earliestDue;
    for (const entry of this.#leased) {
      if (entry.leaseToken !== null && entry.lockedUntil > now) next = Math.min(next, entry.lockedUntil);
    }
    return next;
  }

  // ---- sessions ---------------------------------------------------------------------------------------

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

  #readySet(input: string): Set<SessionEntry> {
    let ready = this.#ready.get(input);
    if (!ready) {
      ready = new Set();
      this.#ready.set(input, ready);
    }
    return ready;
  }

  /** Leases the named session, or the first free session with messages in round-robin order; null if none. */
  tryLease(input: string, sessionId: string | null): { entry: SessionEntry; token: string } | null {
    this.promoteDue();
    const now = this.now();
    const ready = this.#readySet(input);
    const named = sessionId === null ? undefined : this.#sessions.get(input)?.get(sessionId);
    const candidates = sessionId === null ? ready : named && ready.has(named) ? [named] : [];
    let chosen: SessionEntry | null = null;
    for (const entry of candidates) {
      if (!isLeaseFree(entry, now)) continue;
      this.#deadLetterExhausted(entry, null);
      if (entry.line.length === 0) continue;
      chosen = entry;
      break;
    }
    if (!chosen) return null;
    const token = uuidv7(now);
    chosen.leaseToken = token;
    chosen.lockedUntil = now + this.options.lockDurationMs;
    ready.delete(chosen);
    ready.add(chosen);
    this.#leased.add(chosen);
    return { entry: chosen, token };
  }

  assertLease(entry: SessionEntry, token: string): void {
    this.assertOpen();
    if (entry.leaseToken !== token || entry.lockedUntil <= this.now()) {
      throw new TransportError(
        TransportErrorCode.SessionLockLost,
        `Lock on session '${entry.sessionId}' at '${entry.input}' was lost (expired, released or taken over)`,
      );
    }
  }

  renewLease(entry: SessionEntry, token: string): number {
    this.assertLease(entry, token);
    entry.lockedUntil = this.now() + this.options.lockDurationMs;
    return entry.lockedUntil;
  }

  /** Ends the lease. Only a live lease hands its messages back uncounted; a lapsed one already counted them. */
  releaseLease(entry: SessionEntry, token: string): void {
    if (entry.leaseToken !== token) return;
    const lapsed = entry.lockedUntil <= this.now();
    entry.leaseToken = null;
    entry.lockedUntil = 0;
    this.#leased.delete(entry);
    // The session goes back to the ready set with its turn used: one accept waiter (or idle holder) takes it.
    if (entry.line.length > 0) this.waiters.notifyWork(entry.input, [entry.sessionId]);
    this.#forgetIfEmpty(entry);
    if (lapsed) return;
    for (const item of entry.line) {
      if (item.heldBy !== token) continue;
      item.heldBy = null;
      item.deliveryCount = Math.max(0, item.deliveryCount - 1);
    }
  }

  /** Drops a session that holds nothing, so accept-next does not scan an ever-growing set of idle sessions. */
  #forgetIfEmpty(entry: SessionEntry): void {
    if (entry.line.length > 0 || entry.state !== null || entry.parked.size > 0 || entry.leaseToken !== null)
      return;
    const sessions = this.#sessions.get(entry.input);
    if (sessions?.get(entry.sessionId) === entry) sessions.delete(entry.sessionId);
  }

  /** Delivers up to `max` messages in sequence order that this lease has not received yet. */
  tryReceive(entry: SessionEntry, token: string, max: number): ReceivedMessage[] {
    this.assertLease(entry, token);
    this.promoteDue();
    this.#deadLetterExhausted(entry, token);
    const received: ReceivedMessage[] = [];
    for (const item of entry.line) {
      if (received.length >= max) break;
      if (item.heldBy === token) continue;
      item.heldBy = token;
      item.deliveryCount += 1;
      item.lockToken = uuidv7(this.now());
      received.push(toReceived(item));
    }
    return received;
  }

  #deadLetterExhausted(entry: SessionEntry, token: string | null): void {
    const max = this.options.maxDeliveryCount;
    for (const item of [...entry.line]) {
      if (item.heldBy === token || item.heldBy === null || item.deliveryCount < max) continue;
      this.#removeFromLine(entry, item);
      this.#addDeadLetter(item, MAX_DELIVERY_COUNT_REASON, maxDeliveryDescription(item.deliveryCount, max));
    }
  }

  findHeld(entry: SessionEntry, token: string, message: ReceivedMessage): LineMessage {
    this.assertLease(entry, token);
    const item = entry.line.find((m) => m.sequence === message.sequence);
    if (!item || item.heldBy !== token || item.lockToken !== message.lockToken) {
      throw new TransportError(
        TransportErrorCode.MessageLockLost,
        `Message ${message.sequence} of session '${entry.sessionId}' is not held by this lease (already settled or redelivered)`,
      );
    }
    return item;
  }

  /** Validates effects, then removes the message and applies everything with no await in between. */
  settle(
    entry: SessionEntry,
    token: string,
    message: ReceivedMessage,
    effects: SettleEffects | undefined,
    deadLetter: { reason: string; description: string | null } | null,
  ): void {
    const item = this.findHeld(entry, token, message);
    // The same budget as a publish call: a settlement the transport could not send as one publish is refused.
    this.assertBatchSize(effects?.publish ?? []);
    const plan = this.planPublish(effects?.publish ?? []);
    assertSettleEffects(effects);
    const parkedToDeadLetter = (effects?.deadLetterParked ?? []).map((request) => {
      const parked = entry.parked.get(request.sequence);
      if (!parked) throw parkedMessageNotFound(entry.input, entry.sessionId, request.sequence);
      return { parked, request };
    });
    this.#removeFromLine(entry, item);
    if (deadLetter) this.#addDeadLetter(item, deadLetter.reason, deadLetter.description);
    for (const { parked, request } of parkedToDeadLetter) {
      entry.parked.delete(parked.sequence);
      this.#addDeadLetter(
        {
          message: { ...parked.message, sessionId: entry.sessionId },
          input: entry.input,
          deliveryCount: 0,
        },
        request.reason,
        request.description,
      );
    }
    this.applyPublish(plan);
    const parkedAt = new Date(this.now());
    for (const { sequence, message: parkedMessage } of effects?.park ?? []) {
      if (!entry.parked.has(sequence))
        entry.parked.set(sequence, { sequence, message: parkedMessage, parkedAt });
    }
    for (const sequence of effects?.unpark ?? []) entry.parked.delete(sequence);
    if (effects?.state !== undefined)
      entry.state = effects.state === null ? null : structuredClone(effects.state);
  }

  /** Checks every settlement against the state the ones before it leave, then applies them all in order. */
  settleMany(entry: SessionEntry, token: string, settlements: readonly BatchSettlement[]): void {
    if (!Array.isArray(settlements)) {
      throw new TransportError(
        TransportErrorCode.InvalidArgument,
        'settleMany: settlements must be an array',
      );
    }
    const parked = new Set(entry.parked.keys());
    const settled = new Set<number>();
    for (const { message, effects, deadLetter } of settlements) {
      this.findHeld(entry, token, message);
      assertSettledOnce(settled, message.sequence);
      if (deadLetter) assertDeadLetterReason(deadLetter.reason);
      this.assertBatchSize(effects?.publish ?? []);
      this.planPublish(effects?.publish ?? []);
      assertSettleEffects(effects);
      for (const { sequence } of effects?.deadLetterParked ?? []) {
        if (!parked.delete(sequence)) throw parkedMessageNotFound(entry.input, entry.sessionId, sequence);
      }
      for (const { sequence } of effects?.park ?? []) parked.add(sequence);
      for (const sequence of effects?.unpark ?? []) parked.delete(sequence);
    }
    for (const { message, effects, deadLetter } of settlements)
      this.settle(entry, token, message, effects, deadLetter ?? null);
  }

  abandon(entry: SessionEntry, token: string, message: ReceivedMessage): void {
    const item = this.findHeld(entry, token, message);
    item.heldBy = null;
    if (item.deliveryCount >= this.options.maxDeliveryCount) {
      this.#removeFromLine(entry, item);
      this.#addDeadLetter(
        item,
        MAX_DELIVERY_COUNT_REASON,
        maxDeliveryDescription(item.deliveryCount, this.options.maxDeliveryCount),
      );
    }
    this.waiters.notifyWork(entry.input, [entry.sessionId]);
  }

  setState(entry: SessionEntry, token: string, state: SessionState | null): void {
    this.assertLease(entry, token);
    assertSessionState(state);
    entry.state = state === null ? null : structuredClone(state);
  }

  #removeFromLine(entry: SessionEntry, item: LineMessage): void {
    const index = entry.line.indexOf(item);
    if (index >= 0) entry.line.splice(index, 1);
    if (entry.line.length === 0) this.#ready.get(entry.input)?.delete(entry);
  }

  #addDeadLetter(
    item: Pick<LineMessage, 'message' | 'input' | 'deliveryCount'>,
    reason: string,
    description: string | null,
  ): void {
    this.#deadLetters.add(item, reason, description, this.now());
  }

  // ---- what the operator views read and change (memory-operator-views.ts) -------------------------------

  /** The operator views over this state: peek, counts, dead letters, purge. */
  readonly views = new MemoryOperatorViews({
    assertInput: (input) => this.assertInput(input),
    promoteDue: () => this.promoteDue(),
    sessionsAt: (input) => [...(this.#sessions.get(input)?.values() ?? [])],
    scheduled: this.#scheduled,
    deadLetters: this.#deadLetters,
    enqueue: (deliveries) => this.#enqueue(deliveries),
    dropReady: (input) => this.#ready.delete(input),
    scheduleChanged: () => this.#recomputeEarliestDue(),
  });
}

function toReceived(item: LineMessage): ReceivedMessage {
  return {
    ...item.message,
    input: item.input,
    sequence: item.sequence,
    deliveryCount: item.deliveryCount,
    enqueuedAt: new Date(item.enqueuedAt),
    lockToken: item.lockToken,
  };
}
