import type { EventType, MessageHandlingContext, PendingHandoff } from '@nimbus/core';
import type { PublishReceipt } from './publisher.js';

/** Lineage of a handled message, enough to publish a follow-up from it. */
export interface MessageLineage {
  readonly messageId: string;
  readonly sessionId: string;
  readonly correlationId: string | null;
  /** The first message of the lineage; never `self` (normalised to the message's own id). */
  readonly originatingMessageId: string;
}

/** What a handler knows about the message it handles, and what it can do from there. */
export interface HandlerContext extends MessageLineage {
  readonly eventId: string;
  readonly eventTypeId: string;
  /** `self` for an original publish. */
  readonly parentMessageId: string;
  readonly endpointId: string;
  readonly retryCount: number;
  /** True while a parked message is replayed after its session was unblocked. */
  readonly isReplay: boolean;
  /**
   * Publishes a follow-up event in this message's session, correlation and lineage. `messageId` is required
   * and must be deterministic (derived from this message), so that a retried handler publishes the same id.
   */
  publish<T>(
    eventType: EventType<T>,
    payload: T,
    options: { readonly messageId: string },
  ): Promise<PublishReceipt>;
  /** Records that the work continues outside the handler; settle it later with the HandoffClient. */
  markPendingHandoff(handoff: PendingHandoff): void;
  /**
   * Aborted on shutdown past the drain timeout, on session lock loss or after the handler timeout; pass it to
   * your I/O. Stopping because of it abandons the message (delivered again), it is not a failure.
   */
  readonly signal: AbortSignal;
  /** The engine-level context, for advanced use. */
  readonly raw: MessageHandlingContext;
}
