import type { Clock } from '../clock.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import type { Logger } from '../logger.js';
import type { ReceivedMessage, SessionHandle, Transport } from '../transport/transport.js';

/**
 * What the processor drives for each accepted session. The handler owns settlement: every message it is given
 * must be completed, abandoned or dead-lettered through `session`. The processor never settles on its behalf, so
 * a message the handler leaves unsettled stays locked until the session is released or its lock lapses.
 */
export interface SessionMessageHandler {
  /** Called once per accepted session before its first message (e.g. to replay parked messages). */
  onSessionAccepted?(session: SessionHandle): Promise<void>;
  handleMessage(session: SessionHandle, message: ReceivedMessage): Promise<void>;
  /**
   * Optional: handles a received batch (more than one message, in FIFO order) in one call, e.g. to settle it in
   * one transaction. It settles every message it runs, as `handleMessage` would; once one is abandoned (delivered
   * again) it must run none of the later ones, which would overtake it, and says how many it left in hand
   * (`leftUnrun`). The processor then ends the session's turn: the release hands them back uncounted. A throw
   * counts as one handler error.
   */
  handleMessages?(
    session: SessionHandle,
    messages: readonly ReceivedMessage[],
  ): Promise<BatchHandlingOutcome | undefined | void>;
}

/** What `handleMessages` reports besides its settlements. */
export interface BatchHandlingOutcome {
  /** Messages at the end of the batch it did not run (after an abandoned one): still held, unsettled. */
  readonly leftUnrun: number;
  /** An unexpected error the batch stopped at (its message abandoned): counted and reported as a handler error. */
  readonly error?: unknown;
}

export type ProcessorErrorSource =
  | 'accept'
  | 'session'
  | 'onSessionAccepted'
  | 'handler'
  | 'renewLock'
  | 'release';

export interface ProcessorErrorContext {
  readonly source: ProcessorErrorSource;
  readonly input: string;
  readonly sessionId?: string;
}

export interface SessionProcessorOptions {
  readonly transport: Transport;
  readonly input: string;
  readonly handler: SessionMessageHandler;
  /** Sessions handled at the same time (one accept loop each). Default 32. */
  readonly maxConcurrentSessions?: number;
  /**
   * A session with no message for this long is released. Default 1 000. A transport may end the wait early
   * when another session has work and no accept loop is free (the session is then released at once).
   */
  readonly sessionIdleTimeoutMs?: number;
  /**
   * The turn budget: after this many messages in one turn the session is released (its remaining messages wait
   * their turn behind the sessions that waited longer), so more active sessions than slots all get served.
   * Default 64; 0 means no limit.
   */
  readonly maxMessagesPerTurn?: number;
  /** The turn budget in time: a session held this long is released after its current batch. Default 500; 0: no limit. */
  readonly maxTurnMs?: number;
  /** How long one message's handling (or one idle wait) keeps the lock renewed; 0 disables renewal. Default 300 000. */
  readonly maxAutoLockRenewalDurationMs?: number;
  /**
   * How often the session lease is renewed, on its own timer (a long handler keeps its lease). Default: a third
   * of the transport's `lockDurationMs`; it must be shorter than the lease minus `leaseSafetyMarginMs`.
   */
  readonly leaseRenewalIntervalMs?: number;
  /**
   * The fence: a handler starts only while more than this much of the session's lease is left, measured on the
   * monotonic clock (a paused process sees the time passed); with less, or after a failed renewal, the session's
   * messages in hand are dropped unrun and the handlers' signal is aborted (`lockLost`). Default: a tenth of the
   * transport's `lockDurationMs`, at most 5 000.
   */
  readonly leaseSafetyMarginMs?: number;
  /** Messages fetched ahead of the one being handled. Default 0. */
  readonly prefetchCount?: number;
  /** Messages asked for per receive. Default `prefetchCount + 1`. */
  readonly receiveBatchSize?: number;
  /** How long one accept call waits for a session before trying again. Default 5 000. */
  readonly acceptWaitMs?: number;
  /** First back-off after a transport error; doubles per consecutive error up to `maxErrorBackoffMs`. Default 1 000. */
  readonly errorBackoffMs?: number;
  readonly maxErrorBackoffMs?: number;
  /**
   * How long `stop()` lets in-flight handlers finish (unless `stop({ timeoutMs })` says otherwise); near its
   * end their signals are aborted, and what is still running when it ends is left to its lock's expiry
   * (delivered again). Default 30 000.
   */
  readonly drainTimeoutMs?: number;
  /** A handler running longer than this has its signal aborted. Default 0: no handler timeout. */
  readonly handlerTimeoutMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Observes every error the processor survives (it has already been logged). */
  readonly onError?: (error: unknown, context: ProcessorErrorContext) => void;
}

export interface ResolvedProcessorOptions {
  readonly transport: Transport;
  readonly input: string;
  readonly handler: SessionMessageHandler;
  readonly maxConcurrentSessions: number;
  readonly sessionIdleTimeoutMs: number;
  readonly maxMessagesPerTurn: number;
  readonly maxTurnMs: number;
  readonly maxAutoLockRenewalDurationMs: number;
  readonly leaseRenewalIntervalMs: number;
  readonly leaseSafetyMarginMs: number;
  readonly receiveBatchSize: number;
  readonly acceptWaitMs: number;
  readonly errorBackoffMs: number;
  readonly maxErrorBackoffMs: number;
  readonly drainTimeoutMs: number;
  readonly handlerTimeoutMs: number;
}

export class SessionProcessorOptionsError extends NimBusError<typeof NimBusErrorCode.InvalidOption> {
  override readonly name = 'SessionProcessorOptionsError';
  constructor(message: string) {
    super(NimBusErrorCode.InvalidOption, message);
  }
}

function integer(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new SessionProcessorOptionsError(
      `SessionProcessor option ${name} must be an integer ≥ ${min}, got ${String(value)}`,
    );
  }
  return value;
}

/** Applies defaults and refuses invalid values with an error naming the option. */
export function resolveProcessorOptions(options: SessionProcessorOptions): ResolvedProcessorOptions {
  if (!options || typeof options !== 'object') {
    throw new SessionProcessorOptionsError('SessionProcessor options are required');
  }
  if (!options.transport || typeof options.transport.acceptSession !== 'function') {
    throw new SessionProcessorOptionsError('SessionProcessor option transport must be a Transport');
  }
  if (typeof options.input !== 'string' || options.input.length === 0) {
    throw new SessionProcessorOptionsError('SessionProcessor option input must be a non-empty string');
  }
  if (!options.handler || typeof options.handler.handleMessage !== 'function') {
    throw new SessionProcessorOptionsError(
      'SessionProcessor option handler must have a handleMessage function',
    );
  }
  const prefetchCount = integer('prefetchCount', options.prefetchCount ?? 0, 0);
  const lease = resolveLeaseTiming(options);
  const errorBackoffMs = integer('errorBackoffMs', options.errorBackoffMs ?? 1_000, 0);
  return {
    transport: options.transport,
    input: options.input,
    handler: options.handler,
    maxConcurrentSessions: integer('maxConcurrentSessions', options.maxConcurrentSessions ?? 32, 1),
    sessionIdleTimeoutMs: integer('sessionIdleTimeoutMs', options.sessionIdleTimeoutMs ?? 1_000, 1),
    maxMessagesPerTurn: integer('maxMessagesPerTurn', options.maxMessagesPerTurn ?? 64, 0),
    maxTurnMs: integer('maxTurnMs', options.maxTurnMs ?? 500, 0),
    maxAutoLockRenewalDurationMs: integer(
      'maxAutoLockRenewalDurationMs',
      options.maxAutoLockRenewalDurationMs ?? 300_000,
      0,
    ),
    ...lease,
    receiveBatchSize: integer('receiveBatchSize', options.receiveBatchSize ?? prefetchCount + 1, 1),
    acceptWaitMs: integer('acceptWaitMs', options.acceptWaitMs ?? 5_000, 1),
    errorBackoffMs,
    maxErrorBackoffMs: integer('maxErrorBackoffMs', options.maxErrorBackoffMs ?? 30_000, errorBackoffMs),
    drainTimeoutMs: integer('drainTimeoutMs', options.drainTimeoutMs ?? 30_000, 0),
    handlerTimeoutMs: integer('handlerTimeoutMs', options.handlerTimeoutMs ?? 0, 0),
  };
}

/** The renewal interval and safety margin, defaulted from the transport's lease and checked against it. */
function resolveLeaseTiming(
  options: SessionProcessorOptions,
): Pick<ResolvedProcessorOptions, 'leaseRenewalIntervalMs' | 'leaseSafetyMarginMs'> {
  const leaseMs = options.transport.capabilities?.lockDurationMs ?? 30_000;
  const margin = integer(
    'leaseSafetyMarginMs',
    options.leaseSafetyMarginMs ?? Math.min(5_000, Math.ceil(leaseMs / 10)),
    0,
  );
  const interval = integer(
    'leaseRenewalIntervalMs',
    options.leaseRenewalIntervalMs ?? Math.max(1, Math.floor(leaseMs / 3)),
    1,
  );
  if (interval + margin >= leaseMs) {
    throw new SessionProcessorOptionsError(
      `SessionProcessor options leaseRenewalIntervalMs (${interval}) plus leaseSafetyMarginMs (${margin}) must be shorter than the transport's lease (lockDurationMs ${leaseMs}), or the lease lapses between renewals`,
    );
  }
  return { leaseRenewalIntervalMs: interval, leaseSafetyMarginMs: margin };
}
