import { MessageType } from '@nimbus/core';
import { ResolutionStatus, TERMINAL_STATUSES } from './enums.js';

/** The three persisted fields of the stored row the guard decides from. */
export interface GuardedRow {
  readonly resolutionStatus: ResolutionStatus;
  /** Type of the message that last wrote the row. */
  readonly messageType: MessageType;
  readonly parentMessageId: string | null;
}

/** The write about to happen: its target status and the message that causes it. */
export interface IncomingStatusWrite {
  readonly resolutionStatus: ResolutionStatus;
  readonly messageType: MessageType;
  /** Id of the incoming message (the row's `lastMessageId` after the write). */
  readonly lastMessageId: string | null;
}

export type StatusWriteDecision = 'write' | 'refuse';

/** Request-stage writes: the first sighting of a request, or a deferral of it. */
const REQUEST_STAGE_TYPES: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.EventRequest,
  MessageType.DeferralResponse,
]);

/** Operator or engine requests that move an event on from an outcome. */
export const CONTROL_REQUEST_TYPES: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.ResubmissionRequest,
  MessageType.SkipRequest,
  MessageType.RetryRequest,
  MessageType.ContinuationRequest,
  MessageType.HandoffCompletedRequest,
  MessageType.HandoffFailedRequest,
]);

/**
 * The stale-write guard: decides whether a status write may replace the stored row.
 *
 * Pass `null` for a row that does not exist or was removed/archived. Providers must evaluate this
 * atomically against the row they are about to replace (same transaction / compare-and-swap).
 * `'refuse'` means the row already holds a later outcome: nothing is written and the caller must
 * not retry.
 */
export function decideStatusWrite(
  existing: GuardedRow | null,
  incoming: IncomingStatusWrite,
): StatusWriteDecision {
  if (existing === null) return 'write';
  // Outcomes always land; terminal-over-terminal reorders stay last-writer-wins.
  if (TERMINAL_STATUSES.has(incoming.resolutionStatus)) return 'write';
  // CLI and test seeds carry Unknown and are deliberately unguarded.
  if (incoming.messageType === MessageType.Unknown) return 'write';

  if (REQUEST_STAGE_TYPES.has(incoming.messageType)) {
    const settled = TERMINAL_STATUSES.has(existing.resolutionStatus);
    const movedOnByControl = CONTROL_REQUEST_TYPES.has(existing.messageType);
    const parkedForHandoff = existing.messageType === MessageType.PendingHandoffResponse;
    return settled || movedOnByControl || parkedForHandoff ? 'refuse' : 'write';
  }

  if (incoming.messageType === MessageType.PendingHandoffResponse) {
    const finished =
      existing.resolutionStatus === ResolutionStatus.Completed ||
      existing.resolutionStatus === ResolutionStatus.Skipped;
    return finished ? 'refuse' : 'write';
  }

  if (CONTROL_REQUEST_TYPES.has(incoming.messageType)) {
    // The row already holds the outcome this very request produced: its copy arrived late.
    const ownId = incoming.lastMessageId;
    return ownId != null && ownId !== '' && existing.parentMessageId === ownId ? 'refuse' : 'write';
  }

  return 'write';
}
