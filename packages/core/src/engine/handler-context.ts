import { AsyncLocalStorage } from 'node:async_hooks';
import type { MessageEnvelope } from '../envelope/envelope.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';

/** Why a handler's signal was aborted (`signal.reason` is a {@link HandlerCancelledError} with this cause). */
export type HandlerCancelReason = 'shutdown' | 'lockLost' | 'timeout';

/** The reason of an aborted handler signal. A handler that stops because of it has its message delivered again. */
export class HandlerCancelledError extends NimBusError<typeof NimBusErrorCode.HandlerCancelled> {
  override readonly name = 'HandlerCancelledError';
  constructor(
    readonly reason: HandlerCancelReason,
    message: string,
  ) {
    super(NimBusErrorCode.HandlerCancelled, message);
  }
}

const NEVER_ABORTED = new AbortController().signal;

/** What the session processor gives the handling of one message (or batch) it runs. */
interface HandlerScope {
  readonly signal: AbortSignal;
  /** Throws (`SessionLockLost`) unless the session's lease is still provably held; see {@link assertLeaseHeld}. */
  readonly leaseCheck?: () => void;
}

const handlerScopes = new AsyncLocalStorage<HandlerScope>();

/**
 * Runs `work` (the handling of one message, or one batch) with `signal` as its handlers' signal and
 * `leaseCheck` as its lease fence: the session processor calls this, the engine reads the signal into each
 * {@link MessageHandlingContext} and calls the fence before each handler starts.
 */
export function runWithHandlerSignal<T>(
  signal: AbortSignal,
  work: () => Promise<T>,
  leaseCheck?: () => void,
): Promise<T> {
  return handlerScopes.run(leaseCheck ? { signal, leaseCheck } : { signal }, work);
}

/**
 * The fence before a handler starts: throws a `SessionLockLost` transport error when the session processor
 * running this work can no longer prove it holds the session's lease (it lapsed on the monotonic clock, is
 * within the safety margin, or a renewal failed), so no handler runs for a session that may have moved on.
 * Outside a processor (a test driving the engine directly) it does nothing.
 */
export function assertLeaseHeld(): void {
  handlerScopes.getStore()?.leaseCheck?.();
}

/**
 * The fence of the work running now, to be called later from another context: work that is queued (a group
 * commit) or retried after a back-off checks the lease again right before it writes, not only when it was asked.
 */
export function currentLeaseFence(): () => void {
  const check = handlerScopes.getStore()?.leaseCheck;
  return check ?? (() => undefined);
}

/** The signal of the handling under way (what the engine gives each handler); never aborted outside a processor. */
export function currentHandlerSignal(): AbortSignal {
  return handlerScopes.getStore()?.signal ?? NEVER_ABORTED;
}

/** What `markPendingHandoff` records: the work continues outside the handler and is settled later. */
export interface PendingHandoff {
  readonly reason: string;
  readonly externalJobId?: string | null;
  /** When the external work is expected to finish. */
  readonly expectedBy?: Date | null;
}

/** The engine's per-message context given to the business handler layer. */
export interface MessageHandlingContext {
  readonly message: MessageEnvelope;
  readonly endpointId: string;
  readonly isReplay: boolean;
  readonly deliveryCount: number;
  /** Marks the message as handed off; repeated calls overwrite (last wins). */
  markPendingHandoff(handoff: PendingHandoff): void;
  readonly pendingHandoff: PendingHandoff | null;
  /**
   * Aborted when the host shuts down past its drain timeout, the session lock is lost, or the handler timeout
   * passes (`signal.reason` is a {@link HandlerCancelledError}). Pass it to I/O (`fetch(url, { signal })`). A
   * handler that fails after its signal was aborted is not a failure: the message is abandoned and delivered again.
   */
  readonly signal: AbortSignal;
}

/**
 * Runs the business handler for one message (the SDK's subscriber implements it). Throws
 * {@link EventHandlerNotFoundError} when nothing handles the type, {@link PermanentFailureError} for payloads
 * that can never be handled, {@link TransientError} for infrastructure hiccups, anything else on failure.
 */
export interface EventContextHandler {
  handle(context: MessageHandlingContext): Promise<void>;
}

export function createHandlingContext(
  message: MessageEnvelope,
  endpointId: string,
  isReplay: boolean,
  deliveryCount: number,
): MessageHandlingContext {
  let handoff: PendingHandoff | null = null;
  return {
    message,
    endpointId,
    isReplay,
    deliveryCount,
    signal: currentHandlerSignal(),
    markPendingHandoff(value) {
      if (!value || typeof value.reason !== 'string' || value.reason.trim() === '') {
        throw new NimBusError(
          NimBusErrorCode.InvalidArgument,
          'markPendingHandoff needs a non-blank reason.',
        );
      }
      handoff = {
        reason: value.reason,
        externalJobId: value.externalJobId ?? null,
        expectedBy: value.expectedBy ?? null,
      };
    },
    get pendingHandoff() {
      return handoff;
    },
  };
}
