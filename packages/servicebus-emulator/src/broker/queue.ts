import { newLockToken } from '../wire/encoding.js';
import type { MemoryBudget } from './budget.js';
import { expiryOf } from './entity-properties.js';
import { type AmqpMessage, deadLetterCopy, type Entry, messageSize } from './message.js';
import {
  deferredNotFound,
  lockLost,
  sessionHeld,
  sessionIdRequired,
  sessionLockNotHeld,
  sessionsNotRequired,
} from './queue-errors.js';
import { type LockHolder, SessionRecord } from './session-record.js';
import { SessionWaiters } from './session-waiters.js';

export const MAX_DELIVERY_COUNT_REASON = 'MaxDeliveryCountExceeded';
export const TTL_EXPIRED_REASON = 'TTLExpiredException';

export interface QueueOptions {
  readonly path: string;
  readonly requiresSession: boolean;
  readonly lockDurationMs: number;
  readonly maxDeliveryCount: number;
  /** A message's time to live is the smaller of its own and this one. */
  readonly defaultMessageTtlMs?: number;
  /** An expired message goes to the dead-letter sub-queue (`TTLExpiredException`) instead of away. */
  readonly deadLetteringOnMessageExpiration?: boolean;
  readonly budget: MemoryBudget;
  /** Where dead-lettered messages go; the dead-letter sub-queue itself has none. */
  readonly deadLetter: Queue | null;
}

/** A receiver link waiting for messages on this queue. */
export interface Consumer extends LockHolder {
  /** The session this consumer holds, or null for a non-session consumer. */
  readonly sessionId: string | null;
  credit(): number;
  deliver(entry: Entry, token: Buffer, lockedUntil: number): void;
}

const NO_SESSION = '';

/** A subscription or dead-letter sub-queue: FIFO per session, peek-lock, delivery counts, session locks. */
export class Queue {
  readonly sessions = new Map<string, SessionRecord>();
  readonly #consumers = new Set<Consumer>();
  readonly #byToken = new Map<string, { entry: Entry; session: SessionRecord }>();
  readonly #bySequence = new Map<number, { entry: Entry; session: SessionRecord }>();
  readonly #sessionWaiters = new SessionWaiters();
  #tick = 0;

  constructor(readonly options: QueueOptions) {}

  get path(): string {
    return this.options.path;
  }

  get size(): number {
    return this.#bySequence.size;
  }

  enqueue(message: AmqpMessage, sequence: number, enqueuedAt: number, deliveryCount = 0): Entry {
    const sessionId = this.options.requiresSession ? (message.group_id ?? null) : null;
    if (this.options.requiresSession && !sessionId) throw sessionIdRequired(this.path);
    const entry: Entry = {
      sequence,
      message,
      sessionId,
      enqueuedAt,
      size: messageSize(message),
      // Time to live does not apply in a dead-letter sub-queue.
      expiresAt:
        this.options.deadLetter === null
          ? Number.POSITIVE_INFINITY
          : expiryOf(message, enqueuedAt, this.options.defaultMessageTtlMs),
      deliveryCount,
      state: 'active',
      lock: null,
    };
    const session = this.#session(sessionId ?? NO_SESSION, true)!;
    session.insert(entry);
    session.updatedAt = Date.now();
    this.#bySequence.set(sequence, { entry, session });
    this.#offerSession(session);
    this.pump();
    return entry;
  }

  addConsumer(consumer: Consumer): void {
    this.#consumers.add(consumer);
    this.pump();
  }

  /** A link went away: its session and message locks end without counting a delivery. */
  removeConsumer(consumer: Consumer): void {
    this.#consumers.delete(consumer);
    for (const [token, { entry, session }] of [...this.#byToken]) {
      if (entry.lock?.holder !== consumer) continue;
      this.#unlock(token, entry);
      session.updatedAt = Date.now();
    }
    for (const session of this.sessions.values()) {
      if (session.holder === consumer) this.#endSessionLock(session);
    }
    this.pump();
  }

  /** A consumer whose connection was lost: it gets nothing more, but its locks run until they expire. */
  forgetConsumer(consumer: Consumer): void {
    this.#consumers.delete(consumer);
  }

  /** Delivers available messages to every consumer with credit, in FIFO order per session. */
  pump(): void {
    for (const consumer of this.#consumers) {
      const session =
        consumer.sessionId === null
          ? this.sessions.get(NO_SESSION)
          : this.#heldBy(consumer.sessionId, consumer);
      if (!session) continue;
      while (consumer.credit() > 0) {
        const entry = session.firstAvailable();
        if (!entry) break;
        if (entry.expiresAt <= Date.now()) this.#expireMessage(entry, session);
        else this.#deliver(entry, session, consumer);
      }
    }
  }

  /** An expired message is never delivered: dead-lettered when the entity says so, otherwise removed. */
  #expireMessage(entry: Entry, session: SessionRecord): void {
    if (!this.options.deadLetteringOnMessageExpiration) {
      this.#remove(entry, session);
      return;
    }
    const description = 'The message expired and was dead lettered.';
    this.moveToDeadLetter(entry, session, TTL_EXPIRED_REASON, description);
  }

  #deliver(entry: Entry, session: SessionRecord, consumer: Consumer): void {
    const { tag, token } = newLockToken();
    const now = Date.now();
    const until = consumer.sessionId === null ? now + this.options.lockDurationMs : session.lockedUntil;
    const timer =
      consumer.sessionId === null ? setTimeout(() => this.#expire(token), until - now).unref() : null;
    entry.lock = { token, holder: consumer, until, timer };
    this.#byToken.set(token, { entry, session });
    consumer.deliver(entry, tag, until);
  }

  /** Locks a named session for `holder` (it need not have messages yet). */
  lockSession(sessionId: string, holder: LockHolder): SessionRecord {
    this.#requireSessions();
    const session = this.#session(sessionId, true)!;
    if (session.holder && session.holder !== holder) throw sessionHeld(this.path, sessionId);
    this.#startSessionLock(session, holder);
    return session;
  }

  /** Locks the next unlocked session with an available message, waiting up to `timeoutMs` for one. */
  lockNextSession(holder: LockHolder, timeoutMs: number): Promise<SessionRecord | null> {
    this.#requireSessions();
    let next: SessionRecord | null = null;
    for (const session of this.sessions.values()) {
      if (session.holder !== null || !session.hasAvailable()) continue;
      if (next === null || session.availableSince < next.availableSince) next = session;
    }
    if (next) {
      this.#startSessionLock(next, holder);
      return Promise.resolve(next);
    }
    if (timeoutMs <= 0) return Promise.resolve(null);
    return this.#sessionWaiters.wait(holder, timeoutMs);
  }

  /** Drops a next-session waiter whose link went away before a session came. */
  cancelSessionWait(holder: LockHolder): void {
    this.#sessionWaiters.cancel(holder);
  }

  renewSessionLock(sessionId: string, holder: LockHolder | null): number {
    const session = this.#lockedSession(sessionId, holder);
    this.#startSessionLock(session, session.holder!);
    return session.lockedUntil;
  }

  getSessionState(sessionId: string, holder: LockHolder | null): Buffer | null {
    return this.#lockedSession(sessionId, holder).state;
  }

  setSessionState(sessionId: string, holder: LockHolder | null, state: Buffer | null): void {
    const session = this.#lockedSession(sessionId, holder);
    session.state = state && state.length > 0 ? state : null;
    session.updatedAt = Date.now();
  }

  #startSessionLock(session: SessionRecord, holder: LockHolder): void {
    if (session.timer) clearTimeout(session.timer);
    session.availableSince = 0;
    session.holder = holder;
    session.lockedUntil = Date.now() + this.options.lockDurationMs;
    session.timer = setTimeout(() => this.#sessionLockExpired(session), this.options.lockDurationMs).unref();
    for (const entry of session.entries) if (entry.lock) entry.lock.until = session.lockedUntil;
  }

  #sessionLockExpired(session: SessionRecord): void {
    const holder = session.holder;
    if (!holder) return;
    for (const entry of [...session.entries]) {
      if (entry.lock) this.#failDelivery(entry, session);
    }
    this.#endSessionLock(session);
    holder.onSessionLockLost?.(session.id);
    this.pump();
  }

  #endSessionLock(session: SessionRecord): void {
    if (session.timer) clearTimeout(session.timer);
    session.timer = null;
    session.holder = null;
    session.lockedUntil = 0;
    this.#offerSession(session);
    if (session.isEmpty) this.sessions.delete(session.id);
  }

  #offerSession(session: SessionRecord): void {
    session.markAvailable(++this.#tick);
    if (session.id === NO_SESSION || session.holder !== null || !session.hasAvailable()) return;
    const waiter = this.#sessionWaiters.take();
    if (!waiter) return;
    this.#startSessionLock(session, waiter.holder);
    waiter.resolve(session);
  }

  #lockedSession(sessionId: string, holder: LockHolder | null): SessionRecord {
    this.#requireSessions();
    const session = this.sessions.get(sessionId);
    if (!session?.holder || (holder !== null && session.holder !== holder)) {
      throw sessionLockNotHeld(this.path, sessionId);
    }
    return session;
  }

  #heldBy(sessionId: string, holder: LockHolder): SessionRecord | undefined {
    return this.sessions.get(sessionId)?.holder === holder ? this.sessions.get(sessionId) : undefined;
  }

  #requireSessions(): void {
    if (!this.options.requiresSession) throw sessionsNotRequired(this.path);
  }

  #session(id: string, create: boolean): SessionRecord | undefined {
    let session = this.sessions.get(id);
    if (!session && create) {
      session = new SessionRecord(id);
      this.sessions.set(id, session);
    }
    return session;
  }

  /** The locked message for `token`; fails with the lock-lost condition the SDK expects. */
  locked(token: string, holder: LockHolder | null): { entry: Entry; session: SessionRecord } {
    const found = this.#byToken.get(token);
    if (found && found.session.id !== NO_SESSION && found.session.holder !== found.entry.lock?.holder) {
      this.#byToken.delete(token);
    } else if (found && (holder === null || found.entry.lock?.holder === holder)) {
      return found;
    }
    throw lockLost(this.path, this.options.requiresSession);
  }

  complete(token: string, holder: LockHolder | null): Entry {
    const { entry, session } = this.locked(token, holder);
    return this.#remove(entry, session);
  }

  /** Abandon: available again in place, with its delivery count + 1 (dead-lettered at the maximum). */
  abandon(token: string, holder: LockHolder | null, annotations?: Record<string, unknown>): void {
    const { entry, session } = this.locked(token, holder);
    if (annotations)
      entry.message.application_properties = { ...entry.message.application_properties, ...annotations };
    this.#unlock(token, entry);
    this.#failDelivery(entry, session, false);
    this.pump();
  }

  /** Released (not delivered): available again in place without counting a delivery. */
  release(token: string, holder: LockHolder | null): void {
    const { entry } = this.locked(token, holder);
    this.#unlock(token, entry);
    this.pump();
  }

  defer(token: string, holder: LockHolder | null): void {
    const { entry } = this.locked(token, holder);
    this.#unlock(token, entry);
    entry.state = 'deferred';
  }

  deadLetter(
    token: string,
    holder: LockHolder | null,
    reason: string | undefined,
    description: string | undefined,
    extra?: Record<string, unknown>,
  ): void {
    const { entry, session } = this.locked(token, holder);
    entry.deliveryCount++;
    this.moveToDeadLetter(entry, session, reason, description, extra);
  }

  renewMessageLock(token: string, holder: LockHolder | null): number {
    const { entry, session } = this.locked(token, holder);
    const lock = entry.lock!;
    if (session.id !== NO_SESSION) return session.lockedUntil;
    if (lock.timer) clearTimeout(lock.timer);
    lock.until = Date.now() + this.options.lockDurationMs;
    lock.timer = setTimeout(() => this.#expire(token), this.options.lockDurationMs).unref();
    return lock.until;
  }

  /** Locks deferred messages by sequence number for `holder` (the session receiver when sessions are used). */
  receiveDeferred(sequences: readonly number[], holder: LockHolder, sessionId: string | null): Entry[] {
    const found = sequences.map((sequence) => {
      const hit = this.#bySequence.get(sequence);
      if (hit?.entry.state !== 'deferred' || (sessionId !== null && hit.session.id !== sessionId)) {
        throw deferredNotFound(this.path, sequence);
      }
      return hit;
    });
    return found.map(({ entry, session }) => {
      const { token } = newLockToken();
      const until = sessionId !== null ? session.lockedUntil : Date.now() + this.options.lockDurationMs;
      entry.lock = { token, holder, until, timer: null };
      entry.state = 'active';
      entry.lock.timer = setTimeout(() => this.#expireDeferred(token), until - Date.now()).unref();
      this.#byToken.set(token, { entry, session });
      return entry;
    });
  }

  moveToDeadLetter(
    entry: Entry,
    session: SessionRecord,
    reason: string | undefined,
    description: string | undefined,
    extra?: Record<string, unknown>,
  ): void {
    this.#remove(entry, session);
    const target = this.options.deadLetter;
    if (!target) return;
    const message = deadLetterCopy(entry.message, this.path, reason, description, extra);
    this.options.budget.reserve(1, entry.size);
    target.enqueue(message, entry.sequence, Date.now(), entry.deliveryCount);
  }

  /** A delivery ended without settlement: count it; at the maximum the message is dead-lettered. */
  #failDelivery(entry: Entry, session: SessionRecord, unlock = true): void {
    if (unlock && entry.lock) this.#unlock(entry.lock.token, entry);
    entry.deliveryCount++;
    if (this.options.deadLetter && entry.deliveryCount >= this.options.maxDeliveryCount) {
      this.moveToDeadLetter(
        entry,
        session,
        MAX_DELIVERY_COUNT_REASON,
        `Delivered ${entry.deliveryCount} times without being settled; the maximum delivery count is ${this.options.maxDeliveryCount}`,
      );
    }
  }

  #expire(token: string): void {
    const found = this.#byToken.get(token);
    if (!found) return;
    this.#failDelivery(found.entry, found.session);
    this.pump();
  }

  #expireDeferred(token: string): void {
    const found = this.#byToken.get(token);
    if (!found) return;
    this.#unlock(token, found.entry);
    found.entry.state = 'deferred';
  }

  #unlock(token: string, entry: Entry): void {
    if (entry.lock?.timer) clearTimeout(entry.lock.timer);
    entry.lock = null;
    this.#byToken.delete(token);
  }

  #remove(entry: Entry, session: SessionRecord): Entry {
    if (entry.lock) this.#unlock(entry.lock.token, entry);
    session.remove(entry);
    session.updatedAt = Date.now();
    this.#bySequence.delete(entry.sequence);
    this.options.budget.release(1, entry.size);
    if (session.isEmpty) this.sessions.delete(session.id);
    return entry;
  }
}
