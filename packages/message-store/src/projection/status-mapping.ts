import { type MessageEnvelope, MessageType, NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { RetryState } from '../entities/retry-state.js';
import { ResolutionStatus } from '../enums.js';

const STATUS_BY_TYPE: ReadonlyMap<MessageType, ResolutionStatus> = new Map<MessageType, ResolutionStatus>([
  [MessageType.EventRequest, ResolutionStatus.Pending],
  [MessageType.RetryRequest, ResolutionStatus.Pending],
  [MessageType.ContinuationRequest, ResolutionStatus.Pending],
  [MessageType.PendingHandoffResponse, ResolutionStatus.Pending],
  [MessageType.ErrorResponse, ResolutionStatus.Failed],
  [MessageType.ResolutionResponse, ResolutionStatus.Completed],
  [MessageType.DeferralResponse, ResolutionStatus.Deferred],
  [MessageType.SkipResponse, ResolutionStatus.Skipped],
  [MessageType.UnsupportedResponse, ResolutionStatus.Unsupported],
]);

/**
 * Recorded in the event's history only. Operator requests change no status by themselves: the engine holding
 * the session decides whether they apply, and its answer (an outcome, or a `RefusalResponse`) is what the row
 * shows, so a refused request never leaves a row Pending.
 */
const HISTORY_ONLY_TYPES: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.ResubmissionRequest,
  MessageType.SkipRequest,
  MessageType.HandoffCompletedRequest,
  MessageType.HandoffFailedRequest,
  MessageType.ProcessDeferredRequest,
  MessageType.RefusalResponse,
]);

export function isHistoryOnly(
  message: Pick<MessageEnvelope, 'messageType' | 'deadLetterErrorDescription'>,
): boolean {
  return message.deadLetterErrorDescription === null && HISTORY_ONLY_TYPES.has(message.messageType);
}

/** The message type has no place in the Resolver's picture (Unknown, ProcessDeferredRequest). */
export class UnmappedMessageTypeError extends NimBusError<typeof NimBusErrorCode.UnsupportedMessageType> {
  override readonly name = 'UnmappedMessageTypeError';
  constructor(readonly messageType: string) {
    super(
      NimBusErrorCode.UnsupportedMessageType,
      `MessageType '${messageType}' does not map to a resolution status; the Resolver cannot record it.`,
    );
  }
}

/** Whether the message changes its event's status (dead-letter notices always do). */
export function hasStatus(
  message: Pick<MessageEnvelope, 'messageType' | 'deadLetterErrorDescription'>,
): boolean {
  return message.deadLetterErrorDescription !== null || STATUS_BY_TYPE.has(message.messageType);
}

/**
 * The status a message puts its event in. A dead-letter notification (any non-null
 * `deadLetterErrorDescription`, even "") is DeadLettered whatever its type.
 */
export function resultingStatus(
  message: Pick<MessageEnvelope, 'messageType' | 'deadLetterErrorDescription'>,
): ResolutionStatus {
  if (message.deadLetterErrorDescription !== null) return ResolutionStatus.DeadLettered;
  const status = STATUS_BY_TYPE.get(message.messageType);
  if (status === undefined) throw new UnmappedMessageTypeError(message.messageType);
  return status;
}

/**
 * The retry state a message gives its row: an `ErrorResponse` (not a dead-letter notice) that carries the
 * scheduled retry is Failed-and-retrying; every other message clears it. The one place this is decided, for
 * the Resolver and the co-located projection alike.
 */
export function retryStateOf(
  message: Pick<
    MessageEnvelope,
    'messageType' | 'deadLetterErrorDescription' | 'retryCount' | 'retryLimit' | 'nextRetryAt'
  >,
): RetryState | null {
  if (message.messageType !== MessageType.ErrorResponse || message.deadLetterErrorDescription !== null)
    return null;
  if (message.nextRetryAt === null || message.retryLimit === null) return null;
  return {
    attempt: (message.retryCount ?? 0) + 1,
    maxAttempts: message.retryLimit + 1,
    nextAttemptAt: message.nextRetryAt,
  };
}
