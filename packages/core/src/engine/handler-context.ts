import type { MessageEnvelope } from '../envelope/envelope.js';

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
    markPendingHandoff(value) {
      if (!value || typeof value.reason !== 'string' || value.reason.trim() === '') {
        throw new TypeError('markPendingHandoff needs a non-blank reason.');
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
