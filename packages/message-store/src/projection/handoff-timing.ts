import { type Clock, type MessageEnvelope, MessageType } from '@nimbus/core';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { mayNeedStoreReads } from './plain-projection.js';

const SETTLEMENT_REQUESTS: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.HandoffCompletedRequest,
  MessageType.HandoffFailedRequest,
]);

/**
 * For the outcome of a handed-off event, the handler's own time is meaningless (the work happened elsewhere):
 * report the wall-clock time since the original request instead. Null when the rule does not apply.
 * Only outcomes of Manager requests pay for the extra reads. The Resolver reads through its store, a co-located
 * projection inside the transport's transaction.
 */
export async function handoffProcessingTimeMs(
  store: Pick<MessageTrackingStore, 'getMessage' | 'getEventHistory'>,
  message: MessageEnvelope,
  clock: Clock,
): Promise<number | null> {
  // Settlements come from the Manager, and a response names its request's sender as originatingFrom.
  if (!mayNeedStoreReads(message) || !message.eventId || message.deadLetterErrorDescription !== null)
    return null;
  const parent = await store.getMessage({ eventId: message.eventId, messageId: message.parentMessageId });
  if (!parent || !SETTLEMENT_REQUESTS.has(parent.messageType)) return null;
  const history = await store.getEventHistory(message.eventId);
  if (!history.some((h) => h.messageType === MessageType.PendingHandoffResponse)) return null;
  const request = history.find((h) => h.messageType === MessageType.EventRequest);
  if (!request) return null;
  return Math.max(0, clock.now() - request.enqueuedTimeUtc.getTime());
}
