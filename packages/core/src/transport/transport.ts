import type { InputControl } from './input-control.js';
import type { Topology, TopologyChanges } from './topology.js';
import type { TransportMessage } from './transport-message.js';

/** A message as delivered to a session consumer. */
export interface ReceivedMessage extends TransportMessage {
  readonly input: string;
  /** Position in the session's line at this input; strictly increasing per (input, session). */
  readonly sequence: number;
  /** 1 on the first delivery, +1 on every abandon or lock expiry. */
  readonly deliveryCount: number;
  readonly enqueuedAt: Date;
  readonly lockToken: string;
}

/** Session state is a JSON object owned by the engine; `null` means no state. */
export type SessionState = Readonly<Record<string, unknown>>;

export interface ParkedMessage {
  /** The permanent place of the message in its session's line. */
  readonly sequence: number;
  readonly message: TransportMessage;
  readonly parkedAt: Date;
}

export interface PublishRequest {
  /** The endpoint whose topic the messages are sent on (routing per design D3). */
  readonly source: string;
  readonly messages: readonly TransportMessage[];
  /** Not visible before this time when given. */
  readonly enqueueAt?: Date;
}

/**
 * Why a message goes to the dead-letter list: the one shape of every dead-lettering (`SessionHandle.deadLetter`,
 * `BatchSettlement.deadLetter`, `SettleEffects.deadLetterParked`). `reason` is a short non-empty code-like text.
 */
export interface DeadLetterReason {
  readonly reason: string;
  readonly description: string | null;
}

/** `SessionHandle.deadLetter`'s bag: the reason and the effects to apply with the settlement. */
export interface DeadLetterOptions extends DeadLetterReason {
  readonly effects?: SettleEffects;
}

/** A parked message of the settling session that a settlement moves to the input's dead-letter list. */
export interface ParkedDeadLetter extends DeadLetterReason {
  readonly sequence: number;
}

/**
 * Side effects applied together with a settlement. With `capabilities.atomicSettleAndPublish` they commit in
 * one transaction with the settlement; otherwise they are applied before it (at-least-once).
 */
export interface SettleEffects {
  readonly publish?: readonly PublishRequest[];
  /** Park messages at their permanent sequence (idempotent per sequence). */
  readonly park?: readonly { readonly sequence: number; readonly message: TransportMessage }[];
  /** Remove parked messages by sequence. */
  readonly unpark?: readonly number[];
  /** New session state; `undefined` leaves it unchanged, `null` clears it. */
  readonly state?: SessionState | null;
  /**
   * Moves these parked messages of the session to the input's dead-letter list (visible to `peekDeadLetters`,
   * requeued by `requeueDeadLetters` into the same session). A sequence that is not parked fails the whole
   * settlement with `MessageNotFound`; a sequence may not also appear in `park` or `unpark`.
   */
  readonly deadLetterParked?: readonly ParkedDeadLetter[];
}

/** One settlement of a `settleMany` call: a `complete`, or a `deadLetter` when `deadLetter` is given. */
export interface BatchSettlement {
  readonly message: ReceivedMessage;
  readonly effects?: SettleEffects;
  readonly deadLetter?: DeadLetterReason;
}

/** What `SessionHandle.receive` takes. */
export interface ReceiveOptions {
  /** Up to this many messages (an integer ≥ 1). */
  readonly max: number;
  /** How long to wait for the first one. */
  readonly waitMs: number;
  /** Ends the wait at once: the receive resolves with what it has in hand (usually nothing), like an accept's. */
  readonly signal?: AbortSignal;
}

/** An exclusive lease on one session of one input. */
export interface SessionHandle {
  readonly input: string;
  readonly sessionId: string;
  readonly lockedUntil: Date;
  /** Up to `max` messages in FIFO order, waiting at most `waitMs` for the first one (or until `signal` aborts). */
  receive(options: ReceiveOptions): Promise<ReceivedMessage[]>;
  getState(): Promise<SessionState | null>;
  setState(state: SessionState | null): Promise<void>;
  complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void>;
  /** Makes the message available again with its delivery count + 1; at the limit it is dead-lettered. */
  abandon(message: ReceivedMessage): Promise<void>;
  /** Moves the message to the input's dead-letter list with `reason`, applying `effects` with it. */
  deadLetter(message: ReceivedMessage, options: DeadLetterOptions): Promise<void>;
  /**
   * Optional (declared by `capabilities.settleMany`): applies the settlements in order, exactly as the same
   * `complete`/`deadLetter` calls one after another would, but all or none, in one transaction. A failing
   * settlement (not held, unknown parked sequence, bad effects) fails the call and applies nothing.
   */
  settleMany?(settlements: readonly BatchSettlement[]): Promise<void>;
  /** Parked messages of this session in sequence order, starting at `fromSequence`. */
  readParked(fromSequence: number, max: number): Promise<ParkedMessage[]>;
  renewLock(): Promise<Date>;
  /** Gives the session up; unsettled messages become available again without counting a delivery. */
  release(): Promise<void>;
}

export interface AcceptOptions {
  /** A named session, or `null`/absent for the next available one. */
  readonly sessionId?: string | null;
  /** How long to wait for a session with a visible message. */
  readonly waitMs: number;
  readonly signal?: AbortSignal;
}

/** Options of `Transport.acceptSessions`: up to `max` sessions of `input` in one call. */
export interface AcceptSessionsOptions {
  readonly input: string;
  /** At most this many sessions (an integer ≥ 1). */
  readonly max: number;
  /** How long to wait for the first session with a visible message. */
  readonly waitMs: number;
  readonly signal?: AbortSignal;
}

export interface ScheduleHandle {
  readonly id: string;
  readonly source: string;
}

export interface TransportCapabilities {
  readonly atomicSettleAndPublish: boolean;
  readonly nativeScheduling: boolean;
  /** Budget for one publish call, in bytes of body + headers; publishers page larger batches. */
  readonly maxBatchBytes: number;
  readonly maxDeliveryCount: number;
  readonly lockDurationMs: number;
  /** Session handles implement `settleMany` (several settlements in one transaction). Absent means false. */
  readonly settleMany?: boolean;
}

export interface TransportCounts {
  readonly active: number;
  readonly scheduled: number;
  readonly deadLettered: number;
  readonly parked: number;
}

export interface PeekedMessage extends TransportMessage {
  readonly input: string;
  readonly sequence: number;
  readonly deliveryCount: number;
  readonly enqueuedAt: Date;
  readonly visibleAt: Date;
}

export interface DeadLetteredMessage extends TransportMessage {
  readonly id: string;
  readonly input: string;
  readonly reason: string;
  readonly description: string | null;
  readonly deliveryCount: number;
  readonly deadLetteredAt: Date;
  /**
   * Set when the stored message cannot be read back (headers that are not a JSON object of strings): why.
   * Its `headers` are then empty, and `requeueDeadLetters` leaves it where it is (only a purge removes it).
   */
  readonly unreadable?: string;
}

export type PurgeTarget = 'active' | 'scheduled' | 'deadLettered' | 'parked' | 'all';

/** The transport SPI the engine, the Resolver and the WebApp are written against (design D2). */
export interface Transport {
  readonly name: string;
  readonly capabilities: TransportCapabilities;
  /** Provisions inputs and routes; idempotent; reports what changed. */
  applyTopology(topology: Topology): Promise<TopologyChanges>;
  getTopology(): Promise<Topology>;
  publish(requests: readonly PublishRequest[]): Promise<void>;
  schedule(source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle>;
  /** Throws `TransportError(MessageNotFound)` for an unknown or already delivered handle. */
  cancelScheduled(handle: ScheduleHandle): Promise<void>;
  /** Resolves `null` when no session became available within `waitMs`. */
  acceptSession(input: string, options: AcceptOptions): Promise<SessionHandle | null>;
  /**
   * Optional: leases up to `max` sessions of `input` that have a visible message and no live lease, longest
   * ready first (the order `acceptSession` would hand them out), in one round trip where the transport can.
   * Each handle is its own lease, fenced on its own, exactly as if `acceptSession` had returned it; no session is
   * in the result twice. Waits at most `waitMs` for the first; resolves `[]` when none became available.
   */
  acceptSessions?(options: AcceptSessionsOptions): Promise<SessionHandle[]>;
  peek(
    input: string,
    options?: { readonly max?: number; readonly sessionId?: string },
  ): Promise<PeekedMessage[]>;
  counts(input: string): Promise<TransportCounts>;
  peekDeadLetters(input: string, max?: number): Promise<DeadLetteredMessage[]>;
  /**
   * Moves dead-lettered messages (all, or those ids) back to the input; returns how many moved. Unreadable
   * ones (`unreadable` set) are never moved, and never make the call fail.
   */
  requeueDeadLetters(input: string, ids?: readonly string[]): Promise<number>;
  purge(input: string, target: PurgeTarget): Promise<number>;
  /** Paused inputs, thresholds and custom-check results shared with every host (absent: not supported). */
  readonly control?: InputControl;
  /**
   * Closes by draining (the transport's `stop()`): later calls of the transport and its session handles fail with
   * `TransportError(Closed)`, waiting `acceptSession` and `receive` calls end at once with it, work under way may
   * finish (the transport's documented drain: releasing held sessions, a sweep), then connections close.
   * Idempotent; resolves when closed.
   */
  close(): Promise<void>;
  /**
   * Closes now: like `close()`, but nothing waits for work under way (e.g. Service Bus closes its clients without
   * releasing held sessions one by one first). During a `close()` it cuts the drain short. Idempotent; resolves
   * when closed.
   */
  abort(): Promise<void>;
  /** Resolves once the transport is fully closed, by `close()` or `abort()` (never rejects). */
  closed(): Promise<void>;
}
